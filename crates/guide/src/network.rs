//! Network: the seed's CPSW tables measured with iperf3 against a peer running
//! `boardbench guide peer` (an iperf3 server): TCP throughput in each direction and both at once,
//! UDP throughput at zero loss per frame size found by the RFC 2544 §26.1 search, and the
//! "possible loss" figure of an unlimited sender.
//!
//! Choices and why:
//! - iperf3 replaces the seed's netperf: packaged everywhere, JSON output, `--bidir`.
//! - Throughput is the application payload in 10^6 bit/s (netperf's THROUGHPUT); kPPS is
//!   datagrams per second / 1000; CPU load is the whole board's (/proc/stat, 100 − idle − iowait),
//!   like netperf's LOCAL_CPU_UTIL. iperf3's own figure for the peer's process is given too —
//!   the only view of the other end's cost.
//! - Frame sizes 64, 128, 256, 1024, 1518 map to UDP payloads of frame − 46 (Ethernet header
//!   and FCS, IPv4, UDP): 18, 82, 210, 978, 1472.
//! - The zero-loss search ([`zero_loss_search`]) is a binary search between 0 and the rate an
//!   unlimited sender reached; it reports the highest *measured* loss-free received rate and
//!   stops at 1 % resolution. Trials are shorter than RFC 2544's 60 s (5 s, 1 s with `--quick`)
//!   so the section fits a lab's time; the notes say so. `--net-time SECS` (1–60) sets the TCP
//!   test and each UDP trial to that length, up to the seed's 60 s.
//! - `--interface IFACE`: the client binds to the interface's IPv4 address (`iperf3 -B`), the
//!   tables' titles name the driver and interface ([`crate::netif`]: "TCP Throughput
//!   (am65-cpsw-nuss, eth0)", as the published guides name a table after the Ethernet driver),
//!   the notes give the link speed, MTU and offloads. Without it the tables keep their plain
//!   titles (and merge with earlier runs').
//! - Latency: netperf's MEAN_LATENCY comes from a request/response test (TCP_RR) that iperf3
//!   does not have. What iperf3 does give is the kernel's smoothed RTT of the loaded TCP stream
//!   (`mean_rtt`/`min_rtt` of tcp_info, egress only: the sender's side) and the UDP jitter of
//!   each loss-free trial; the "Latency" table has those, under names that say what they are,
//!   and the notes say why there is no MEAN_LATENCY.

use std::process::Command;
use std::time::Duration;

use document::guide::{GuideRow, GuideTable, GuideValue};
use serde_json::Value;

use crate::exec::{self, RunError};
use crate::registry::Outcome;
use crate::{Context, sysload};

/// iperf3's port, used by `guide peer` and the client alike.
pub const DEFAULT_PORT: u16 = 5201;

/// The seed's frame sizes.
pub const FRAME_SIZES: [u32; 5] = [64, 128, 256, 1024, 1518];

/// The UDP/IPv4 payload carried by an untagged Ethernet frame of `frame` bytes.
pub fn udp_payload(frame: u32) -> u32 {
    frame.saturating_sub(46)
}

// ---------------------------------------------------------------------------------------------
// iperf3's JSON

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Iperf {
    pub version: String,
    /// "TCP" or "UDP"
    pub protocol: String,
    /// TCP: payload bit/s the receiver got (the forward direction).
    pub tcp_received_bps: f64,
    /// TCP with `--bidir`: the reverse direction's received bit/s.
    pub tcp_reverse_received_bps: Option<f64>,
    pub retransmits: Option<u64>,
    /// UDP: what the sender sent (bit/s, datagrams).
    pub udp_sent_bps: f64,
    pub udp_packets: u64,
    pub udp_lost: u64,
    pub udp_lost_pct: f64,
    /// UDP: what arrived (bit/s).
    pub udp_received_bps: f64,
    /// iperf3's process CPU (% of one CPU) on this side and on the server.
    pub host_cpu: Option<f64>,
    pub remote_cpu: Option<f64>,
    /// TCP: the smoothed round-trip time of this side's sending streams (tcp_info, µs), their
    /// mean and lowest; `None` when this side did not send (`-R`) or the system does not say.
    pub mean_rtt_us: Option<f64>,
    pub min_rtt_us: Option<f64>,
    /// UDP: the receiver's jitter (ms).
    pub udp_jitter_ms: Option<f64>,
    /// The server's iperf3 version and system ("iperf 3.12", "Linux pc 6.1.0 …"), where the
    /// client asked for the server's output (`--get-server-output`) and the server ran with `-J`.
    pub server_version: Option<String>,
    pub server_system: Option<String>,
}

/// Parses `iperf3 -J` output. An `error` member (iperf3 still prints JSON when it fails) is
/// returned as the error.
pub fn parse_iperf(text: &str) -> Result<Iperf, String> {
    let start = text.find('{').ok_or("no JSON in iperf3's output")?;
    let v: Value = serde_json::from_str(&text[start..]).map_err(|e| format!("iperf3 JSON: {e}"))?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(format!("iperf3: {e}"));
    }
    let end = &v["end"];
    let f = |x: &Value| x.as_f64();
    let mut r = Iperf {
        version: v["start"]["version"].as_str().unwrap_or_default().into(),
        protocol: v["start"]["test_start"]["protocol"]
            .as_str()
            .unwrap_or_default()
            .into(),
        host_cpu: f(&end["cpu_utilization_percent"]["host_total"]),
        server_version: v["server_output_json"]["start"]["version"]
            .as_str()
            .map(str::to_string),
        server_system: v["server_output_json"]["start"]["system_info"]
            .as_str()
            .map(|s| s.trim().to_string()),
        remote_cpu: f(&end["cpu_utilization_percent"]["remote_total"]),
        ..Default::default()
    };
    if r.protocol == "UDP" {
        // Newer iperf3 versions split UDP figures into sum_sent / sum_received; older ones only
        // have `sum` (the sender's rate with the receiver's loss count).
        let sum = &end["sum"];
        let sent = if end["sum_sent"].is_object() {
            &end["sum_sent"]
        } else {
            sum
        };
        r.udp_sent_bps = f(&sent["bits_per_second"]).unwrap_or(0.0);
        let recv = &end["sum_received"];
        let lossy = if recv.is_object() { recv } else { sum };
        r.udp_packets = lossy["packets"].as_u64().unwrap_or(0);
        r.udp_lost = lossy["lost_packets"].as_u64().unwrap_or(0);
        r.udp_lost_pct = f(&lossy["lost_percent"]).unwrap_or(0.0);
        r.udp_received_bps = if recv.is_object() {
            f(&recv["bits_per_second"]).unwrap_or(0.0)
        } else {
            r.udp_sent_bps * (1.0 - r.udp_lost_pct / 100.0)
        };
        r.udp_jitter_ms = f(&lossy["jitter_ms"]);
    } else {
        // This side's sending streams (with --bidir one stream each way; `"sender": false`
        // marks the reverse one).
        let sending: Vec<&Value> = end["streams"]
            .as_array()
            .map(|a| a.iter().map(|s| &s["sender"]).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|s| s["sender"].as_bool() != Some(false))
            .collect();
        let means: Vec<f64> = sending.iter().filter_map(|s| f(&s["mean_rtt"])).collect();
        if !means.is_empty() {
            r.mean_rtt_us = Some(means.iter().sum::<f64>() / means.len() as f64);
        }
        r.min_rtt_us = sending
            .iter()
            .filter_map(|s| f(&s["min_rtt"]))
            .reduce(f64::min);
        r.tcp_received_bps = f(&end["sum_received"]["bits_per_second"]).unwrap_or(0.0);
        r.tcp_reverse_received_bps = f(&end["sum_received_bidir_reverse"]["bits_per_second"]);
        r.retransmits = end["sum_sent"]["retransmits"].as_u64();
    }
    Ok(r)
}

// ---------------------------------------------------------------------------------------------
// RFC 2544 §26.1

/// One UDP trial at an offered rate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trial {
    pub offered_bps: f64,
    pub sent_bps: f64,
    pub received_bps: f64,
    pub lost: u64,
    pub packets: u64,
    /// The board's CPU load over the trial.
    pub cpu: Option<f64>,
    /// The receiver's jitter (ms), where iperf3 gave it.
    pub jitter_ms: Option<f64>,
}

impl Trial {
    pub fn zero_loss(&self) -> bool {
        self.lost == 0 && self.packets > 0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The highest measured loss-free trial.
    pub best: Trial,
    pub trials: u32,
    /// The sender never reached the offered rate in the best trial: the limit may be the
    /// sender, not the path.
    pub sender_limited: bool,
}

/// The RFC 2544 throughput search: the highest rate in (0, `max_bps`] at which every datagram
/// arrives, by bisection until the interval is within `resolution` (a fraction, e.g. 0.01) of its
/// upper end. `trial` runs one trial at a rate; `None` from it (cancelled, failed) ends the search
/// with what was found. Returns `None` when no loss-free trial was measured.
pub fn zero_loss_search(
    max_bps: f64,
    resolution: f64,
    mut trial: impl FnMut(f64) -> Option<Trial>,
) -> Option<SearchResult> {
    let mut best: Option<Trial> = None;
    let mut trials = 0;
    let (mut lo, mut hi) = (0.0_f64, max_bps);
    let mut rate = max_bps;
    while trials < 24 {
        let Some(t) = trial(rate) else { break };
        trials += 1;
        if t.zero_loss() {
            lo = rate;
            if best
                .as_ref()
                .is_none_or(|b| t.received_bps > b.received_bps)
            {
                best = Some(t);
            }
        } else {
            hi = rate;
        }
        if hi - lo <= resolution * hi || rate >= max_bps && lo >= max_bps {
            break;
        }
        rate = (lo + hi) / 2.0;
    }
    best.map(|b| SearchResult {
        sender_limited: b.sent_bps < 0.95 * b.offered_bps,
        best: b,
        trials,
    })
}

// ---------------------------------------------------------------------------------------------
// The client

#[derive(Debug, Clone)]
pub struct Options {
    pub peer: String,
    pub port: u16,
    /// Run iperf3 through this command prefix (tests: `ip netns exec NS`).
    pub prefix: Vec<String>,
    /// TCP test length.
    pub tcp_time: Duration,
    /// One UDP trial's length.
    pub trial_time: Duration,
    pub frame_sizes: Vec<u32>,
    /// The search's resolution (fraction of the rate).
    pub resolution: f64,
    /// How often a trial that lost datagrams is repeated at the same rate before the rate counts
    /// as lossy (a busy moment of the board or the peer is not the path's limit).
    pub retries: u32,
    /// iperf3's socket buffer (`-w`, applied to both ends), e.g. "2M"; None: the systems'
    /// defaults. A small receive buffer loses datagrams at a busy receiver before the path does.
    pub socket_buffer: Option<String>,
    /// Which tables: TCP, UDP egress, UDP ingress.
    pub tcp: bool,
    pub udp_egress: bool,
    pub udp_ingress: bool,
    /// `--interface IFACE`: bind the client to it and name it (and its driver) in the titles.
    pub interface: Option<String>,
    /// The client's local address (`iperf3 -B`): the interface's IPv4 address.
    pub bind: Option<String>,
    /// How often [`client`] tries to reach the server when the connection fails (refused, no
    /// answer, busy): 4 by default, for a peer that may still be starting; 1 once the peer is
    /// known to be up (IPsec's later rows), so a port it does not serve fails at once.
    pub connect_attempts: u32,
}

/// The most a trial may last: the seed's (and RFC 2544's) 60 s.
pub const MAX_TRIAL: Duration = Duration::from_secs(60);

/// What the command line says of the network section beyond `--peer`.
#[derive(Debug, Clone, Default)]
pub struct NetSettings {
    /// `--interface IFACE`.
    pub interface: Option<String>,
    /// `--net-time SECS`: the TCP test's and each UDP trial's length (at most [`MAX_TRIAL`]).
    pub trial: Option<Duration>,
    /// `--ipsec-peer`: the ipsec section measures ESP to the `--peer` over the real link
    /// (the peer runs `boardbench guide peer --ipsec BOARD`) instead of between namespaces.
    pub ipsec_peer: bool,
}

impl Options {
    pub fn new(peer: &str) -> Self {
        let (host, port) = split_peer(peer);
        Options {
            peer: host,
            port,
            prefix: Vec::new(),
            tcp_time: Duration::from_secs(10),
            trial_time: Duration::from_secs(5),
            frame_sizes: FRAME_SIZES.to_vec(),
            resolution: 0.01,
            retries: 1,
            socket_buffer: None,
            tcp: true,
            udp_egress: true,
            udp_ingress: true,
            interface: None,
            bind: None,
            connect_attempts: 4,
        }
    }

    pub fn for_context(ctx: &Context, peer: &str) -> Self {
        let mut o = Options::new(peer);
        o.tcp_time = ctx
            .budget(Duration::from_secs(10))
            .max(Duration::from_secs(2));
        o.trial_time = ctx
            .budget(Duration::from_secs(5))
            .max(Duration::from_secs(1));
        if let Some(t) = ctx.network.trial {
            let t = t.clamp(Duration::from_secs(1), MAX_TRIAL);
            o.tcp_time = t;
            o.trial_time = t;
        }
        o.interface = ctx.network.interface.clone();
        o
    }
}

/// "host", "host:port", "[v6]:port", "v6" → host and port.
pub fn split_peer(peer: &str) -> (String, u16) {
    if let Some(rest) = peer.strip_prefix('[')
        && let Some((h, p)) = rest.split_once("]:")
        && let Ok(port) = p.parse()
    {
        return (h.to_string(), port);
    }
    match peer.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') => match p.parse() {
            Ok(port) => (h.to_string(), port),
            Err(_) => (peer.to_string(), DEFAULT_PORT),
        },
        _ => (
            peer.trim_matches(|c| c == '[' || c == ']').to_string(),
            DEFAULT_PORT,
        ),
    }
}

pub enum ClientError {
    Cancelled,
    Failed(String),
}

/// One iperf3 client run with `args`, with the board's CPU load over it. A busy or not yet
/// listening server is tried again, up to `opt.connect_attempts` times in all. A refused
/// connection (nothing listens on the port) is said as such.
pub fn client(
    ctx: &Context,
    opt: &Options,
    args: &[String],
    time: Duration,
) -> Result<(Iperf, Option<f64>), ClientError> {
    let mut last = String::new();
    for attempt in 0..opt.connect_attempts.max(1) {
        if attempt > 0 && !ctx.pause(Duration::from_millis(300 * u64::from(attempt))) {
            return Err(ClientError::Cancelled);
        }
        let mut cmd = match opt.prefix.split_first() {
            Some((p, rest)) => {
                let mut c = Command::new(p);
                c.args(rest).arg("iperf3");
                c
            }
            None => Command::new("iperf3"),
        };
        cmd.args(["-c", &opt.peer, "-p", &opt.port.to_string(), "-J"])
            .arg("-t")
            .arg(time.as_secs().max(1).to_string())
            .args(args);
        if let Some(b) = &opt.bind {
            cmd.args(["-B", b]);
        }
        let limit = time + Duration::from_secs(20);
        let (ran, load) = sysload::around(&ctx.root, || exec::run(&mut cmd, limit, &ctx.cancel));
        let ran = match ran {
            Ok(r) => r,
            Err(RunError::Cancelled) => return Err(ClientError::Cancelled),
            Err(e) => return Err(ClientError::Failed(format!("iperf3 {e}"))),
        };
        match parse_iperf(&ran.stdout) {
            Ok(r) => return Ok((r, load)),
            Err(e) => {
                last = e;
                let retry = last.contains("busy")
                    || last.contains("connect")
                    || last.contains("Connection refused");
                if !retry {
                    break;
                }
            }
        }
    }
    if last.contains("Connection refused") {
        last = format!(
            "the connection to {} port {} was refused: nothing listens there ({last})",
            opt.peer, opt.port
        );
    }
    Err(ClientError::Failed(last))
}

fn udp_args(payload: u32, rate_bps: Option<f64>, reverse: bool) -> Vec<String> {
    let mut a = vec![
        "-u".to_string(),
        "-l".into(),
        payload.to_string(),
        "-b".into(),
        rate_bps.map_or("0".into(), |r| format!("{}", r.round() as u64)),
    ];
    if reverse {
        a.push("-R".into());
    }
    a
}

fn udp_trial(
    ctx: &Context,
    opt: &Options,
    payload: u32,
    rate: Option<f64>,
    reverse: bool,
) -> Result<Trial, ClientError> {
    let mut args = udp_args(payload, rate, reverse);
    if let Some(w) = &opt.socket_buffer {
        args.extend(["-w".to_string(), w.clone()]);
    }
    let (r, cpu) = client(ctx, opt, &args, opt.trial_time)?;
    Ok(Trial {
        offered_bps: rate.unwrap_or(f64::INFINITY),
        sent_bps: r.udp_sent_bps,
        received_bps: r.udp_received_bps,
        lost: r.udp_lost,
        packets: r.udp_packets,
        cpu,
        jitter_ms: r.udp_jitter_ms,
    })
}

fn v(x: f64) -> Option<GuideValue> {
    Some(GuideValue::one(x))
}

fn udp_table(title: &str, loss_column: bool) -> GuideTable {
    let mut columns = vec![
        "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)".to_string(),
        "THROUGHPUT (Mbits/sec)".into(),
        "Packets Per Second (kPPS)".into(),
        "CPU Load % (LOCAL_CPU_UTIL)".into(),
    ];
    if loss_column {
        columns.push("Packet Loss %".into());
    }
    GuideTable {
        key_headers: Vec::new(),
        title: title.into(),
        key_header: "Frame Size(bytes)".into(),
        columns,
        rows: Vec::new(),
    }
}

fn udp_row(frame: u32, t: &Trial, loss: Option<f64>) -> GuideRow {
    let payload = udp_payload(frame);
    let mut cells = vec![
        v(payload as f64),
        v(t.received_bps / 1e6),
        v(t.received_bps / (payload as f64 * 8.0) / 1000.0),
        t.cpu.map(GuideValue::one),
    ];
    if let Some(l) = loss {
        cells.push(v(l));
    }
    GuideRow {
        keys: Vec::new(),
        key: frame.to_string(),
        cells,
    }
}

/// The registered section: needs `--peer HOST`.
pub fn section(ctx: &Context) -> Outcome {
    let Some(peer) = ctx.peer.as_deref() else {
        return Outcome::skipped(
            "no peer given (--peer HOST; run `boardbench guide peer` on the other machine)",
        );
    };
    run(ctx, &Options::for_context(ctx, peer))
}

/// Runs `tool args` (through the options' prefix, so inside a test's namespace) for a few
/// seconds at most; its stdout, or why there is none.
fn tool_output(ctx: &Context, opt: &Options, tool: &str, args: &[&str]) -> Result<String, String> {
    if exec::which(tool).is_none() {
        return Err(format!("{tool} is not installed"));
    }
    let mut cmd = match opt.prefix.split_first() {
        Some((p, rest)) => {
            let mut c = Command::new(p);
            c.args(rest).arg(tool);
            c
        }
        None => Command::new(tool),
    };
    cmd.args(args);
    match exec::run(&mut cmd, Duration::from_secs(5), &ctx.cancel) {
        Ok(r) if r.ok() => Ok(r.stdout),
        Ok(r) => Err(format!(
            "{tool} {}: {}",
            args.join(" "),
            r.stderr.lines().next().unwrap_or("failed").trim()
        )),
        Err(e) => Err(format!("{tool} {e}")),
    }
}

/// The interface of `--interface`: read from the root's /sys and ethtool (where installed;
/// it describes the running system, so it is asked only when the root is the host's or a
/// prefix runs it where the interface is).
pub fn interface(
    ctx: &Context,
    opt: &Options,
    name: &str,
) -> Result<crate::netif::Interface, String> {
    let live = ctx.root.is_host() || !opt.prefix.is_empty();
    let features = if live {
        tool_output(ctx, opt, "ethtool", &["-k", name]).map_err(|e| {
            format!(
                "{e} (the kernel gives an interface's offloads only through ethtool's \
                 interface, not in /sys)"
            )
        })
    } else {
        Err("the root is not the running system's (ethtool describes the running one)".into())
    };
    let info = live
        .then(|| tool_output(ctx, opt, "ethtool", &["-i", name]).ok())
        .flatten();
    crate::netif::describe(
        &ctx.root,
        name,
        features.as_deref().map_err(Clone::clone),
        info.as_deref(),
    )
}

/// Runs the network section with explicit options.
pub fn run(ctx: &Context, opt: &Options) -> Outcome {
    if exec::which("iperf3").is_none() {
        return Outcome::skipped("iperf3 is not installed (Debian: apt install iperf3)");
    }
    let Some(name) = opt.interface.as_deref() else {
        return measure(ctx, opt);
    };
    let iface = match interface(ctx, opt, name) {
        Ok(i) => i,
        Err(e) => return Outcome::skipped(format!("--interface {name}: {e}")),
    };
    let mut opt = opt.clone();
    let bound = match tool_output(ctx, &opt, "ip", &["-o", "-4", "addr", "show", "dev", name])
        .map(|t| crate::netif::parse_ipv4(&t))
    {
        Ok(Some(addr)) => {
            let note = format!("the client bound to {addr} (iperf3 -B), the address of {name}");
            opt.bind = Some(addr);
            note
        }
        Ok(None) => format!(
            "{name} has no IPv4 address: the client was not bound, traffic took the kernel's route to the peer"
        ),
        Err(e) => {
            format!("the client was not bound ({e}): traffic took the kernel's route to the peer")
        }
    };
    let mut out = measure(ctx, &opt);
    let suffix = iface.title_suffix();
    for t in &mut out.tables {
        t.title = format!("{} {suffix}", t.title);
    }
    let mut notes = iface.notes();
    notes.push(bound);
    notes.append(&mut out.notes);
    out.notes = notes;
    out
}

/// The section's measurements (TCP, UDP, latency) with the options as they are.
fn measure(ctx: &Context, opt: &Options) -> Outcome {
    let mut out = Outcome {
        tool: exec::version_line("iperf3", &["--version"]),
        ..Default::default()
    };
    out.notes.push(format!(
        "peer {}:{}; THROUGHPUT = UDP/TCP payload in 10^6 bit/s; CPU Load = this board's whole \
         system (/proc/stat); UDP payload = frame − 46 bytes",
        opt.peer, opt.port
    ));
    let mut latency = GuideTable::perf("Latency", "Measure");
    let fail = |mut out: Outcome, e: ClientError| {
        if let ClientError::Failed(e) = e {
            out.failed = Some(e);
        }
        out
    };

    if opt.tcp {
        let mut t = GuideTable {
            key_headers: Vec::new(),
            title: "TCP Throughput".into(),
            key_header: "Command Used".into(),
            columns: vec![
                "THROUGHPUT (Mbits/sec)".into(),
                "CPU Load % (LOCAL_CPU_UTIL)".into(),
                "Peer iperf3 CPU (%)".into(),
            ],
            rows: Vec::new(),
        };
        let secs = opt.tcp_time.as_secs().max(1);
        let mut rtt_rows = Vec::new();
        let omit: Vec<String> = if secs >= 3 {
            vec!["-O".into(), "1".into()]
        } else {
            Vec::new()
        };
        for (key, extra) in [
            (format!("iperf3 -t {secs} (egress)"), vec![]),
            (
                format!("iperf3 -t {secs} -R (ingress)"),
                vec!["-R".to_string()],
            ),
            (
                format!("iperf3 -t {secs} --bidir (bidirectional)"),
                vec!["--bidir".to_string()],
            ),
        ] {
            if ctx.cancelled() {
                out.tables.push(t);
                return out;
            }
            let egress = extra.is_empty();
            let args: Vec<String> = omit.iter().cloned().chain(extra).collect();
            match client(ctx, opt, &args, opt.tcp_time) {
                Ok((r, cpu)) => {
                    if egress {
                        for (what, x) in [("mean", r.mean_rtt_us), ("min", r.min_rtt_us)] {
                            if let Some(x) = x {
                                rtt_rows.push(GuideRow {
                                    keys: Vec::new(),
                                    key: format!("TCP RTT under load, egress, {what} (us)"),
                                    cells: vec![v(x)],
                                });
                            }
                        }
                    }
                    let bps = r.tcp_received_bps + r.tcp_reverse_received_bps.unwrap_or(0.0);
                    t.rows.push(GuideRow {
                        keys: Vec::new(),
                        key,
                        cells: vec![
                            v(bps / 1e6),
                            cpu.map(GuideValue::one),
                            r.remote_cpu.map(GuideValue::one),
                        ],
                    });
                }
                Err(e) => {
                    if !t.rows.is_empty() {
                        out.tables.push(t);
                    }
                    return fail(out, e);
                }
            }
        }
        out.tables.push(t);
        latency.rows.extend(rtt_rows);
    }

    for (reverse, wanted, name) in [
        (false, opt.udp_egress, "Egress"),
        (true, opt.udp_ingress, "Ingress"),
    ] {
        if !wanted {
            continue;
        }
        let mut zero = udp_table(&format!("UDP {name} Throughput 0 loss"), false);
        let mut possible = udp_table(&format!("UDP {name} Throughput possible loss"), true);
        for &frame in &opt.frame_sizes {
            if ctx.cancelled() {
                break;
            }
            let payload = udp_payload(frame);
            // The unlimited sender: the "possible loss" row and the search's upper bound.
            let unlimited = match udp_trial(ctx, opt, payload, None, reverse) {
                Ok(t) => t,
                Err(e) => {
                    push_nonempty(&mut out, [zero, possible]);
                    return fail(out, e);
                }
            };
            possible.rows.push(udp_row(
                frame,
                &unlimited,
                Some(if unlimited.packets > 0 {
                    100.0 * unlimited.lost as f64 / unlimited.packets as f64
                } else {
                    0.0
                }),
            ));
            let mut err = None;
            let found = zero_loss_search(unlimited.sent_bps, opt.resolution, |rate| {
                let mut last = None;
                for _ in 0..=opt.retries {
                    if ctx.cancelled() {
                        return None;
                    }
                    match udp_trial(ctx, opt, payload, Some(rate), reverse) {
                        Ok(t) if t.zero_loss() => return Some(t),
                        Ok(t) => last = Some(t),
                        Err(e) => {
                            err = Some(e);
                            return None;
                        }
                    }
                }
                last
            });
            if let Some(f) = found {
                zero.rows.push(udp_row(frame, &f.best, None));
                if let Some(j) = f.best.jitter_ms {
                    latency.rows.push(GuideRow {
                        keys: Vec::new(),
                        key: format!(
                            "UDP jitter at 0 loss, {}, frame {frame} (ms)",
                            name.to_lowercase()
                        ),
                        cells: vec![v(j)],
                    });
                }
                out.notes.push(format!(
                    "UDP {} {frame}: {} trials of {} s{}",
                    name.to_lowercase(),
                    f.trials,
                    opt.trial_time.as_secs(),
                    if f.sender_limited {
                        "; the sender did not reach the offered rate (sender-limited)"
                    } else {
                        ""
                    }
                ));
            }
            if let Some(e) = err {
                push_nonempty(&mut out, [zero, possible]);
                return fail(out, e);
            }
        }
        // The seed has no egress "possible loss" table; it is kept anyway: it shows what the
        // board can send at all.
        push_nonempty(&mut out, [zero, possible]);
    }
    if !latency.rows.is_empty() {
        out.tables.push(latency);
    }
    out.notes.push(
        "Latency: netperf's MEAN_LATENCY (a TCP_RR request/response test) is not measured, \
         iperf3 has no such test; the TCP RTT is the kernel's smoothed round-trip time of the \
         loaded egress stream (tcp_info, queueing included), the jitter iperf3's receiver figure \
         of the loss-free trial"
            .into(),
    );
    out.notes.push(format!(
        "0 loss: RFC 2544 §26.1 binary search to {} % resolution with trials of {} s \
         (the RFC asks for 60 s); a lossy trial is repeated {} time(s) before its rate counts \
         as lossy",
        opt.resolution * 100.0,
        opt.trial_time.as_secs(),
        opt.retries
    ));
    out
}

fn push_nonempty<const N: usize>(out: &mut Outcome, tables: [GuideTable; N]) {
    out.tables
        .extend(tables.into_iter().filter(|t| !t.rows.is_empty()));
}

// ---------------------------------------------------------------------------------------------
// The peer

/// `boardbench guide peer`: runs an iperf3 server until `cancel` is set (Ctrl-C). The command
/// prints `version` (from [`peer_version`]) and the port before calling this.
pub fn peer(
    port: u16,
    bind: Option<&str>,
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<(), String> {
    if exec::which("iperf3").is_none() {
        return Err("iperf3 is not installed (Debian: apt install iperf3)".into());
    }
    let mut cmd = Command::new("iperf3");
    cmd.args(["-s", "-p", &port.to_string()]);
    if let Some(b) = bind {
        cmd.args(["-B", b]);
    }
    match exec::run(&mut cmd, Duration::from_secs(u64::MAX / 4), cancel) {
        Err(RunError::Cancelled) => Ok(()),
        Err(e) => Err(format!("iperf3 server {e}")),
        Ok(r) => Err(format!(
            "iperf3 server ended (exit {:?}): {}",
            r.status,
            r.stderr.lines().next().unwrap_or_default()
        )),
    }
}

/// The peer's iperf3 version line ("iperf 3.12 (cJSON 1.7.15)").
pub fn peer_version() -> Option<String> {
    exec::version_line("iperf3", &["--version"])
}
