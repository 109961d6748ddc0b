//! IPsec over a real link: the seed's setting, ESP between the board and another host. The
//! other host runs `boardbench guide peer --ipsec BOARD_IP` ([`peer`]); the board runs the
//! guide with `--peer HOST --ipsec-peer` ([`run`]).
//!
//! The design, chosen so that neither end needs to ask the other anything at run time:
//! - The peer installs every algorithm row at once, each row on its own iperf3 port (the
//!   peer's `PORT` + 1 … + 5, one `iperf3 -s -J` per row), with its own reqid and SPIs
//!   ([`spi`], [`reqid`]). The board installs one row at a time (states and policies of the same
//!   shape, [`row_set`]), runs iperf3 against that row's port, and removes them again.
//! - The policies select only TCP to and from the row's port: nothing else between the two hosts
//!   is touched (a board managed over ssh from the same PC keeps its session), and a row the
//!   other end lacks costs only that row.
//! - Keys are lab-only, derived from the row name ([`super::lab_key`]), SPIs are fixed and
//!   documented: this is a benchmark of the ESP data path, not security.
//! - Both ends keep what they installed in an [`Installed`] guard whose Drop removes exactly it
//!   (by SPI and selector, never a flush: a lab PC may have IPsec of its own) and stops the
//!   servers: normal end, error, Ctrl-C/SIGTERM (the command's cancel flag ends the wait), panic.
//!   Only SIGKILL leaves them; the next run replaces such leftovers (an add refused as
//!   existing removes the old state or policy of the same SPI or selector and adds again).

use std::net::{IpAddr, Ipv4Addr, ToSocketAddrs};
use std::process::{Command, Stdio};
use std::time::Duration;

use adapters::process::Group;
use document::guide::{GuideRow, GuideValue};

use super::ip;
use super::{algorithms, state_packets};
use crate::Context;
use crate::exec;
use crate::network::{self, ClientError};
use crate::registry::Outcome;

/// Which end a set of states and policies is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Board,
    Peer,
}

/// The SPI of row `index` (0-based, [`algorithms`]' order) in one direction: `0xbb00RR01` from
/// the board to the peer, `0xbb00RR02` back, RR = the row's number (1–5).
pub fn spi(index: usize, from_board: bool) -> u32 {
    reqid(index) | if from_board { 1 } else { 2 }
}

/// The reqid tying a row's policies to its states (`0xbb00RR00`): on the peer, where every row
/// is installed at once, it is what makes the kernel pick the row's state for the row's port.
pub fn reqid(index: usize) -> u32 {
    0xbb00_0000 | ((index as u32 + 1) << 8)
}

/// The peer's iperf3 port of row `index`: the base port + 1 + index (5202 … 5206 by default).
pub fn row_port(base: u16, index: usize) -> u16 {
    base.wrapping_add(1 + index as u16)
}

/// The `ip` arguments ("xfrm state add …", "xfrm policy add …") of one row at one end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XfrmSet {
    pub states: Vec<Vec<String>>,
    pub policies: Vec<Vec<String>>,
}

fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// Row `index`'s ESP tunnel between `board` and `peer` (IPv4 addresses) for TCP to and from
/// `port` (the row's iperf3 port on the peer), as `end` installs it. The states are the same
/// at both ends (the board's sending state is the peer's receiving one); the policies are too,
/// with the directions swapped.
pub fn row_set(
    end: End,
    index: usize,
    alg: &[String],
    board: &str,
    peer: &str,
    port: u16,
) -> XfrmSet {
    let req = format!("{:#x}", reqid(index));
    let states = [(board, peer, true), (peer, board, false)]
        .into_iter()
        .map(|(src, dst, from_board)| {
            let mut a = strings(&[
                "xfrm",
                "state",
                "add",
                "src",
                src,
                "dst",
                dst,
                "proto",
                "esp",
                "spi",
                &format!("{:#010x}", spi(index, from_board)),
                "reqid",
                &req,
                "mode",
                "tunnel",
            ]);
            a.extend(alg.iter().cloned());
            a
        })
        .collect();
    let (to_peer, to_board) = match end {
        End::Board => ("out", "in"),
        End::Peer => ("in", "out"),
    };
    let port = port.to_string();
    let policies = [
        (board, peer, "dport", to_peer),
        (peer, board, "sport", to_board),
    ]
    .into_iter()
    .map(|(src, dst, which, dir)| {
        strings(&[
            "xfrm",
            "policy",
            "add",
            "src",
            &format!("{src}/32"),
            "dst",
            &format!("{dst}/32"),
            "proto",
            "tcp",
            which,
            &port,
            "dir",
            dir,
            "tmpl",
            "src",
            src,
            "dst",
            dst,
            "proto",
            "esp",
            "reqid",
            &req,
            "mode",
            "tunnel",
        ])
    })
    .collect();
    XfrmSet { states, policies }
}

/// The `ip` arguments that remove what `add` (a state or policy of [`row_set`]) adds: the
/// state by its address, protocol and SPI, the policy by its selector and direction.
pub fn delete_of(add: &[String]) -> Vec<String> {
    let stop = if add.get(1).map(String::as_str) == Some("policy") {
        "tmpl"
    } else {
        "reqid"
    };
    let mut d: Vec<String> = add.iter().take_while(|w| *w != stop).cloned().collect();
    if let Some(w) = d.get_mut(2) {
        *w = "delete".into();
    }
    d
}

impl XfrmSet {
    /// The removals of the whole set, policies first.
    pub fn deletes(&self) -> Vec<Vec<String>> {
        self.policies
            .iter()
            .chain(&self.states)
            .map(|a| delete_of(a))
            .collect()
    }
}

/// What one end installed and the servers it started; Drop stops the servers and removes the
/// states and policies (newest first), each by its own SPI or selector.
#[derive(Default)]
pub struct Installed {
    deletes: Vec<Vec<String>>,
    servers: Vec<Group>,
}

impl Installed {
    /// Adds `set`, states before policies. On a refusal what was added stays in the guard (and
    /// goes with it); the error names the command and the kernel's answer.
    pub fn add(&mut self, set: &XfrmSet) -> Result<(), String> {
        for a in set.states.iter().chain(&set.policies) {
            if let Err(e) = ip(a) {
                // A leftover of a run killed with SIGKILL (boardbench's own SPI or selector):
                // removed, and the add tried once more.
                if !e.contains("File exists") {
                    return Err(e);
                }
                let _ = ip(&delete_of(a));
                ip(a)?;
            }
            self.deletes.push(delete_of(a));
        }
        Ok(())
    }

    /// How many states and policies it holds.
    pub fn len(&self) -> usize {
        self.deletes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.deletes.is_empty()
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        for s in &mut self.servers {
            // The one kill rule (SIGTERM, SIGKILL after the grace).
            let _ = s.stop(exec::GRACE);
        }
        for d in self.deletes.drain(..).rev() {
            let _ = ip(&d);
        }
    }
}

/// "dev" and "src" of `ip -o route get ADDR` ("10.0.0.2 dev eth0 src 10.0.0.1 uid 0 \ cache").
pub fn parse_route(text: &str) -> Option<(String, String)> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let after = |k: &str| {
        w.iter()
            .position(|x| *x == k)
            .and_then(|i| w.get(i + 1))
            .map(|s| s.to_string())
    };
    Some((after("dev")?, after("src")?))
}

/// The interface and this host's address towards `addr`.
pub fn route(addr: &str) -> Result<(String, String), String> {
    let text = ip(&strings(&["-o", "route", "get", addr]))?;
    let (dev, src) =
        parse_route(&text).ok_or_else(|| format!("ip route get {addr}: {}", text.trim()))?;
    if dev == "lo" {
        return Err(format!("{addr} is this host's own address"));
    }
    Ok((dev, src))
}

/// `host` as an IPv4 address (ESP states name addresses).
pub fn ipv4_of(host: &str) -> Result<Ipv4Addr, String> {
    if let Ok(a) = host.parse() {
        return Ok(a);
    }
    (host, 0)
        .to_socket_addrs()
        .map_err(|e| format!("{host}: {e}"))?
        .find_map(|a| match a.ip() {
            IpAddr::V4(v) => Some(v),
            IpAddr::V6(_) => None,
        })
        .ok_or_else(|| format!("{host} has no IPv4 address (the ESP tunnel is IPv4)"))
}

/// The kernel's answer at the end of an `ip` error ("… 128: Error: Requested type not found.").
fn kernel_answer(e: &str) -> &str {
    e.rsplit(": ").next().unwrap_or(e).trim()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

// ---------------------------------------------------------------------------------------------
// The peer

/// One row on the peer.
#[derive(Debug, Clone)]
pub struct PeerRow {
    pub row: &'static str,
    pub port: u16,
    /// Why the row is not served (the kernel refused its state, its server did not start).
    pub refused: Option<String>,
}

/// The peer's side, installed; dropping it removes everything and stops the row servers.
pub struct PeerTunnel {
    pub board: String,
    pub local: String,
    pub dev: String,
    pub rows: Vec<PeerRow>,
    guard: Installed,
}

impl PeerTunnel {
    /// Lines for the peer's terminal: what is installed, per row.
    pub fn describe(&self) -> Vec<String> {
        let mut l = vec![format!(
            "ipsec: ESP tunnel mode with the board {} from {} ({}), {} states and policies; \
             fixed SPIs and lab-only keys (a benchmark, not security)",
            self.board,
            self.local,
            self.dev,
            self.guard.len()
        )];
        for (i, r) in self.rows.iter().enumerate() {
            l.push(match &r.refused {
                None => format!(
                    "ipsec:   {:<11} iperf3 on port {}, SPI {:#010x} from the board, {:#010x} to it",
                    r.row,
                    r.port,
                    spi(i, true),
                    spi(i, false)
                ),
                Some(e) => format!("ipsec:   {:<11} not served: {e}", r.row),
            });
        }
        l
    }
}

/// `boardbench guide peer --ipsec BOARD`: every row's states, policies and iperf3 server
/// (ports `port` + 1 …). Errors in one line: not root, no ip/iperf3, no route to the board, or a
/// kernel that refuses every ESP state (nothing is left installed then).
pub fn peer(board: &str, port: u16) -> Result<PeerTunnel, String> {
    if !is_root() {
        return Err("--ipsec needs root (it adds xfrm states and policies)".into());
    }
    for tool in ["ip", "iperf3"] {
        if exec::which(tool).is_none() {
            return Err(format!("{tool} is not installed"));
        }
    }
    let board: Ipv4Addr = board.parse().map_err(|_| {
        format!(
            "--ipsec {board}: give the board's IPv4 address on the link, as this host reaches it"
        )
    })?;
    let board = board.to_string();
    let (dev, local) = route(&board)?;
    let mut t = PeerTunnel {
        board: board.clone(),
        local: local.clone(),
        dev,
        rows: Vec::new(),
        guard: Installed::default(),
    };
    // The kernel's distinct answers to refused states.
    let mut answers: Vec<String> = Vec::new();
    for (i, (row, alg)) in algorithms().into_iter().enumerate() {
        let p = row_port(port, i);
        let refused = match t.guard.add(&row_set(End::Peer, i, &alg, &board, &local, p)) {
            Err(e) => {
                let answer = kernel_answer(&e).to_string();
                if !answers.contains(&answer) {
                    answers.push(answer.clone());
                }
                Some(format!("the kernel refused the ESP state ({answer})"))
            }
            Ok(()) => match Group::spawn(
                Command::new("iperf3")
                    .args(["-s", "-J", "-p", &p.to_string(), "-B", &local])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            ) {
                Ok(c) => {
                    t.guard.servers.push(c);
                    None
                }
                Err(e) => Some(format!("iperf3 -s -p {p}: {e}")),
            },
        };
        t.rows.push(PeerRow {
            row,
            port: p,
            refused,
        });
    }
    if t.rows.iter().all(|r| r.refused.is_some()) {
        if answers.is_empty() {
            let why = t.rows[0].refused.clone().unwrap_or_default();
            return Err(format!(
                "no row could be served ({why}); nothing was left installed"
            ));
        }
        return Err(format!(
            "this kernel has no usable ESP: it refused every row's state ({}); it needs \
             CONFIG_INET_ESP (module esp4), CONFIG_XFRM_USER and the algorithms; nothing was \
             left installed",
            answers.join("; ")
        ));
    }
    // A server that ended at once (its port taken) is said now, not as a board's timeout.
    std::thread::sleep(Duration::from_millis(300));
    let served = t.rows.iter_mut().filter(|r| r.refused.is_none());
    for (r, server) in served.zip(t.guard.servers.iter_mut()) {
        if let Ok(Some(st)) = server.try_wait() {
            r.refused = Some(format!(
                "iperf3 -s -p {} ended at once ({}; the port in use?)",
                r.port, st.status
            ));
        }
    }
    Ok(t)
}

// ---------------------------------------------------------------------------------------------
// The board

/// Whether this iperf3 has `--connect-timeout` (iperf 3.2 and later): a row the peer does not
/// serve then fails in seconds instead of waiting for TCP's retries.
fn has_connect_timeout() -> bool {
    Command::new("iperf3")
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .map(|o| [o.stdout, o.stderr].concat())
        .map(|text| String::from_utf8_lossy(&text).contains("--connect-timeout"))
        .unwrap_or(false)
}

/// The ipsec section with `--peer HOST[:PORT] --ipsec-peer`: every row through ESP to the peer
/// over the interface the route to it takes, `time` per row.
pub fn run(ctx: &Context, peer: &str, time: Duration) -> Outcome {
    if !ctx.root.is_host() {
        return Outcome::skipped("a recorded tree: no kernel to run");
    }
    for tool in ["ip", "iperf3"] {
        if exec::which(tool).is_none() {
            return Outcome::skipped(format!("{tool} is not installed"));
        }
    }
    if !is_root() {
        return Outcome::skipped("needs root (xfrm states and policies)");
    }
    let (host, port) = network::split_peer(peer);
    let peer_ip = match ipv4_of(&host) {
        Ok(a) => a.to_string(),
        Err(e) => return Outcome::skipped(format!("--ipsec-peer: {e}")),
    };
    let (dev, local) = match route(&peer_ip) {
        Ok(r) => r,
        Err(e) => return Outcome::skipped(format!("--ipsec-peer: no route to the peer: {e}")),
    };
    let iface = network::interface(ctx, &network::Options::new(&peer_ip), &dev);
    let mut out = Outcome {
        tool: exec::version_line("iperf3", &["--version"]),
        ..Default::default()
    };
    let mut t = super::table(format!(
        "{} {}",
        super::TITLE,
        iface
            .as_ref()
            .map_or_else(|_| format!("({dev})"), |i| i.title_suffix())
    ));
    let mut args = vec!["--get-server-output".to_string()];
    if has_connect_timeout() {
        args.extend(["--connect-timeout".into(), "3000".into()]);
    }
    let mut peer_tool: Option<String> = None;
    let mut failures = Vec::new();
    let mut first_connection = true;
    for (i, (row, alg)) in algorithms().into_iter().enumerate() {
        if ctx.cancelled() {
            break;
        }
        let p = row_port(port, i);
        let mut guard = Installed::default();
        if let Err(e) = guard.add(&row_set(End::Board, i, &alg, &local, &peer_ip, p)) {
            failures.push(format!(
                "{row}: the kernel refused the ESP state ({})",
                kernel_answer(&e)
            ));
            continue;
        }
        let mut opt = network::Options::new(&peer_ip);
        opt.port = p;
        opt.bind = Some(local.clone());
        // The first row's connection is tried a few times (the peer may still be starting);
        // after it the peer is up, and a row it does not serve fails at once (refused) or
        // after one connect timeout, not after four (≈ 15 s each before).
        if !first_connection {
            opt.connect_attempts = 1;
        }
        first_connection = false;
        match network::client(ctx, &opt, &args, time) {
            Ok((r, cpu)) => {
                if peer_tool.is_none() {
                    peer_tool = r.server_version.clone().map(|v| match &r.server_system {
                        Some(s) => format!("{v} on {s}"),
                        None => v,
                    });
                }
                let sent = ip(&strings(&[
                    "-s",
                    "xfrm",
                    "state",
                    "get",
                    "src",
                    &local,
                    "dst",
                    &peer_ip,
                    "proto",
                    "esp",
                    "spi",
                    &format!("{:#010x}", spi(i, true)),
                ]))
                .ok()
                .and_then(|s| state_packets(&s));
                t.rows.push(GuideRow {
                    keys: Vec::new(),
                    key: row.into(),
                    cells: vec![
                        Some(GuideValue::one(r.tcp_received_bps / 1e6)),
                        sent.map(|p| GuideValue::one(p as f64 / time.as_secs_f64())),
                        cpu.map(GuideValue::one),
                    ],
                });
            }
            Err(ClientError::Cancelled) => break,
            Err(ClientError::Failed(e)) => failures.push(format!(
                "{row}: {e} (does the peer run `boardbench guide peer --ipsec {local}`, and did \
                 its kernel take {row}?)"
            )),
        }
        drop(guard);
    }
    if t.rows.is_empty() && !ctx.cancelled() {
        return Outcome::skipped(format!(
            "no ESP figures over the link to {peer_ip}: {}",
            failures.join("; ")
        ));
    }
    match &iface {
        Ok(i) => out.notes.extend(i.notes()),
        Err(e) => out.notes.push(format!("interface {dev}: {e}")),
    }
    out.notes.append(&mut failures);
    out.notes.push(format!(
        "ESP tunnel mode over the link: this board {local} ({dev}) to the peer {peer_ip} \
         (`boardbench guide peer --ipsec {local}`; {}); iperf3 TCP {} s per algorithm to the \
         row's port on the peer ({}–{}), only that traffic in the tunnel; fixed SPIs and \
         lab-only keys derived from the row names (a benchmark, not security); CBC rows with \
         HMAC-SHA256; Packets/Sec from this board's sending state's counter; CPU Load = this \
         board's whole system",
        peer_tool
            .map(|v| format!("the peer's {v}"))
            .unwrap_or_else(|| "the peer's iperf3 version was not reported".into()),
        time.as_secs(),
        row_port(port, 0),
        row_port(port, algorithms().len() - 1),
    ));
    if !t.rows.is_empty() {
        out.tables.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(index: usize) -> (XfrmSet, XfrmSet) {
        let alg = algorithms()[index].1.clone();
        (
            row_set(End::Board, index, &alg, "10.0.0.1", "10.0.0.2", 5203),
            row_set(End::Peer, index, &alg, "10.0.0.1", "10.0.0.2", 5203),
        )
    }

    fn after<'a>(a: &'a [String], key: &str) -> &'a str {
        let i = a.iter().position(|w| w == key).unwrap();
        &a[i + 1]
    }

    fn dir(a: &[String]) -> &str {
        after(a, "dir")
    }

    #[test]
    fn the_board_and_the_peer_mirror_each_other() {
        for i in 0..algorithms().len() {
            let (b, p) = sets(i);
            // The same two states at both ends: the board's sending state is the peer's
            // receiving one.
            assert_eq!(b.states, p.states);
            assert_eq!(b.states.len(), 2);
            let out = &b.states[0];
            assert_eq!(
                &out[3..7],
                ["src", "10.0.0.1", "dst", "10.0.0.2"].map(String::from)
            );
            assert_eq!(after(out, "spi"), format!("{:#010x}", spi(i, true)));
            assert_eq!(after(&b.states[1], "src"), "10.0.0.2");
            assert_eq!(
                after(&b.states[1], "spi"),
                format!("{:#010x}", spi(i, false))
            );
            // The algorithm and keys come last, the same in both directions.
            let alg = &algorithms()[i].1;
            for s in &b.states {
                assert!(s.ends_with(alg), "{s:?}");
                assert_eq!(after(s, "mode"), "tunnel");
                assert_eq!(after(s, "reqid"), format!("{:#x}", reqid(i)));
            }
            // Policies: the same selectors and templates, the directions swapped.
            assert_eq!(b.policies.len(), 2);
            for (bp, pp) in b.policies.iter().zip(&p.policies) {
                let strip = |a: &[String]| {
                    let mut a = a.to_vec();
                    let d = a.iter().position(|w| w == "dir").unwrap();
                    a.remove(d + 1);
                    a
                };
                assert_eq!(strip(bp), strip(pp));
                assert_ne!(dir(bp), dir(pp));
            }
            let to_peer = &b.policies[0];
            assert_eq!(dir(to_peer), "out");
            assert_eq!(dir(&p.policies[0]), "in");
            assert_eq!(after(to_peer, "dport"), "5203");
            assert_eq!(dir(&b.policies[1]), "in");
            assert_eq!(after(&b.policies[1], "sport"), "5203");
            // A policy's template runs between the selector's hosts, through the row's states.
            for pol in &b.policies {
                let t = pol.iter().position(|w| w == "tmpl").unwrap();
                let sel_src = after(pol, "src").trim_end_matches("/32");
                let sel_dst = after(pol, "dst").trim_end_matches("/32");
                assert_eq!(after(&pol[t..], "src"), sel_src);
                assert_eq!(after(&pol[t..], "dst"), sel_dst);
                assert_eq!(after(&pol[t..], "proto"), "esp");
                assert_eq!(after(&pol[t..], "reqid"), format!("{:#x}", reqid(i)));
                assert_eq!(after(pol, "proto"), "tcp");
            }
        }
    }

    #[test]
    fn rows_are_told_apart_by_spi_reqid_and_port() {
        let n = algorithms().len();
        let mut spis: Vec<u32> = (0..n).flat_map(|i| [spi(i, true), spi(i, false)]).collect();
        spis.sort();
        spis.dedup();
        assert_eq!(spis.len(), 2 * n);
        assert!(
            spis.iter().all(|s| *s >= 0x100),
            "SPIs below 256 are reserved"
        );
        assert_eq!(spi(0, true), 0xbb00_0101);
        assert_eq!(spi(4, false), 0xbb00_0502);
        let mut req: Vec<u32> = (0..n).map(reqid).collect();
        req.dedup();
        assert_eq!(req.len(), n);
        let ports: Vec<u16> = (0..n).map(|i| row_port(5201, i)).collect();
        assert_eq!(ports, [5202, 5203, 5204, 5205, 5206]);
    }

    #[test]
    fn removals_name_exactly_what_was_added() {
        let (b, _) = sets(1);
        let d = b.deletes();
        assert_eq!(d.len(), 4);
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(
            d[0],
            words(
                "xfrm policy delete src 10.0.0.1/32 dst 10.0.0.2/32 proto tcp dport 5203 dir out"
            )
        );
        assert_eq!(
            d[1],
            words("xfrm policy delete src 10.0.0.2/32 dst 10.0.0.1/32 proto tcp sport 5203 dir in")
        );
        assert_eq!(
            d[3],
            words("xfrm state delete src 10.0.0.2 dst 10.0.0.1 proto esp spi 0xbb000202")
        );
        // No key ever reaches a removal's arguments.
        assert!(
            d.iter()
                .flatten()
                .all(|w| !w.starts_with("0x") || w.len() <= 10)
        );
    }

    #[test]
    fn route_lines() {
        assert_eq!(
            parse_route("10.0.0.2 dev eth0 src 10.0.0.1 uid 0 \\    cache \n"),
            Some(("eth0".into(), "10.0.0.1".into()))
        );
        assert_eq!(
            parse_route("10.0.0.2 via 10.0.0.254 dev end0 src 10.0.0.1 uid 0"),
            Some(("end0".into(), "10.0.0.1".into()))
        );
        assert_eq!(
            parse_route("RTNETLINK answers: Network is unreachable"),
            None
        );
        assert_eq!(ipv4_of("192.168.1.5").unwrap().to_string(), "192.168.1.5");
        assert!(ipv4_of("::1").is_err());
    }
}
