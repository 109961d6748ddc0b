//! `boardbench monitor --listen ADDR`: the live monitor served as Prometheus metrics, for lab
//! dashboards that watch boards for weeks.
//!
//! The machine is read only when a scrape asks (GET /metrics): the clock per cluster,
//! temperature and load of the sampler the text view uses, each CPU's time per mode since boot
//! (/proc/stat, a counter as node_exporter's: `rate()` gives the shares), the x86
//! thermal_throttle counters and, on a Raspberry Pi, `get_throttled`'s flags — all through
//! `probe::Root`, so `--sysroot` serves a fixture tree. Every figure is a current value or a
//! counter since boot: nothing depends on when the previous scrape was or who made it, so two
//! Prometheus servers and a curl do not distort each other. The names are in `export::live`.
//!
//! HTTP is a small std server, so that the board binary carries no web stack (the results service
//! is its own program, boardbench-serve): a thread per connection, at most [`LIMITS`]`.max_connections`
//! at once (one more is answered 503), the request head within `header_timeout` (a connection
//! held half-open ends there and never delays a scrape: the others are answered meanwhile), one
//! request per connection (`Connection: close`). Three answers: `/metrics` (OpenMetrics when the
//! scraper asks for it, as Prometheus does, else the classic text format for curl and promtool),
//! `/` (a small page), 404 for any other path, 405 for any other method. Reading the machine is
//! done one scrape at a time (a mutex around the sampler), and every thread runs at nice 19 on
//! the host (set before any thread starts, since Linux keeps a nice value per thread): never
//! compete with what is observed.
//!
//! SIGINT, SIGTERM and SIGHUP end it as they end the text monitor: requests in flight are
//! finished (at most [`LIMITS`]`.shutdown_deadline`, reads of the machine are given up at once),
//! and the exit status is 128 + the signal (130 for Ctrl-C, 143 for SIGTERM). A second signal
//! ends it at once.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use export::live::CpuTicks;
use probe::sampler::{Sampler, SamplerConfig};

use crate::cli::Globals;

/// How the listener holds its clients.
pub struct Limits {
    /// The request head must arrive within this.
    pub header_timeout: Duration,
    /// Connections served at once; one more is answered 503.
    pub max_connections: usize,
    /// After a signal, how long requests in flight may take.
    pub shutdown_deadline: Duration,
}

/// The request head within 5 s, 32 connections at once (a board is scraped by one or two
/// servers), and 1 s for requests in flight after a signal (a scrape takes milliseconds).
pub const LIMITS: Limits = Limits {
    header_timeout: Duration::from_secs(5),
    max_connections: 32,
    shutdown_deadline: Duration::from_secs(1),
};

/// The longest request head read (a scraper's is a few hundred bytes).
const MAX_HEAD: usize = 16 * 1024;

/// Everything a scrape reads through.
struct Scrape {
    root: probe::Root,
    sampler: Sampler,
    rpi: Option<probe::rpi::VcGenCmd>,
    /// CPU number → the `cluster` label of `cpu_clock` (the cluster's first CPU).
    clusters: BTreeMap<u32, String>,
    /// The highest CPU ticks answered so far: a counter never goes backwards, even where the
    /// kernel's iowait and idle do (NO_HZ accounting on some kernels).
    highest: BTreeMap<u32, [u64; 8]>,
}

type Shared = Arc<Mutex<Scrape>>;

impl Scrape {
    fn metrics(&mut self) -> String {
        let mut sample = self.sampler.sample();
        // Shares since the sampler's previous sample: they would depend on the previous scrape.
        sample.cpu = None;
        let cpu_ticks = self.cpu_ticks();
        let mut notes = probe::Notes(Vec::new());
        let thermal_throttle = probe::runstate::x86::read_thermal_throttle(&self.root, &mut notes);
        let rpi_throttled = self.rpi.as_mut().and_then(|vc| vc.throttled().ok());
        export::live::metrics(&export::live::LiveReading {
            layout: self.sampler.layout().clone(),
            sample,
            cpu_ticks,
            thermal_throttle,
            rpi_throttled,
        })
    }

    /// Each CPU's counters from /proc/stat's `cpuN` lines (none when it cannot be read).
    fn cpu_ticks(&mut self) -> Vec<CpuTicks> {
        let Ok(text) = self.root.read_bytes("/proc/stat") else {
            return Vec::new();
        };
        probe::stat::parse_per_cpu_times(&text)
            .into_iter()
            .map(|(cpu, t)| {
                // In CPU_MODES order.
                let now = [
                    t.user, t.nice, t.system, t.idle, t.iowait, t.irq, t.softirq, t.steal,
                ];
                let highest = self.highest.entry(cpu).or_insert(now);
                for (h, n) in highest.iter_mut().zip(now) {
                    *h = (*h).max(n);
                }
                CpuTicks {
                    cpu,
                    cluster: self.clusters.get(&cpu).cloned(),
                    ticks: *highest,
                }
            })
            .collect()
    }
}

/// Each CPU of a monitored cluster, named as `cpu_clock` names its cluster (`cpu4`).
fn cluster_names(
    machine: &document::machine::MachineInfo,
    layout: &document::samples::MonitorLayout,
) -> BTreeMap<u32, String> {
    let mut names = BTreeMap::new();
    for monitored in &layout.clusters {
        let name = format!("cpu{}", monitored.first_cpu);
        if let Some(c) = machine
            .clusters
            .iter()
            .find(|c| c.cpus.contains(&monitored.first_cpu))
        {
            for &cpu in &c.cpus {
                names.insert(cpu, name.clone());
            }
        }
    }
    names
}

pub fn serve(addr: SocketAddr, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    if root.is_host() {
        // Never compete with what is being observed (as the text view). First: Linux keeps a
        // nice value per thread, and the threads started later (the probe's readers, the
        // runtime's) inherit it.
        // SAFETY: setpriority only changes the nice value of this thread (and of the threads
        // it starts).
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
    let machine = probe::snapshot::take(&root);
    let config = SamplerConfig::from_machine(&machine);
    let sampler = super::monitor::sampler_for(&config, &root);
    let rpi = sampler
        .layout()
        .raspberry_pi
        .then(|| probe::rpi::VcGenCmd::for_root(&root));
    let clusters = cluster_names(&machine, sampler.layout());
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let scrape = Arc::new(Mutex::new(Scrape {
        root,
        sampler,
        rpi,
        clusters,
        highest: BTreeMap::new(),
    }));
    let signal = Arc::new(AtomicUsize::new(0));
    install_signal_handlers(&signal)?;
    eprintln!("monitor: serving Prometheus metrics on http://{bound}/metrics (Ctrl-C ends)");
    let active = Arc::new(AtomicUsize::new(0));
    while signal.load(Ordering::Relaxed) == 0 {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            // A connection reset before it was accepted, or out of descriptors for a moment.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        let _ = stream.set_nonblocking(false);
        if active.fetch_add(1, Ordering::SeqCst) >= LIMITS.max_connections {
            active.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = respond(
                &stream,
                false,
                "503 Service Unavailable",
                "text/plain; charset=utf-8",
                "too many connections\n",
            );
            continue;
        }
        let (scrape, done) = (Arc::clone(&scrape), Arc::clone(&active));
        let spawned = std::thread::Builder::new()
            .name("boardbench-monitor".into())
            .spawn(move || {
                let _ = answer(&stream, &scrape);
                done.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    // Requests in flight are finished within the deadline; connections still held then (a
    // half-open one, a read of the machine that hangs) end with the process.
    let deadline = Instant::now() + LIMITS.shutdown_deadline;
    while active.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(128 + signal.load(Ordering::Relaxed) as i32)
}

/// SIGINT, SIGTERM and SIGHUP store their number in `which` and give up the probe's reads in
/// progress; a second one ends the process at once (128 + N, as the text monitor).
fn install_signal_handlers(which: &Arc<AtomicUsize>) -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&stop))
            .context("installing signal handler")?;
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("installing signal handler")?;
        signal_hook::flag::register_usize(sig, Arc::clone(which), sig as usize)
            .context("installing signal handler")?;
        signal_hook::flag::register(sig, probe::bounded_read::cancel_flag())
            .context("installing signal handler")?;
    }
    Ok(())
}

/// The request head of `stream` (up to the blank line), read within `header_timeout`; `None`
/// when it does not come in time, is too long or the client went away.
fn read_head(mut stream: &TcpStream) -> Option<String> {
    let deadline = Instant::now() + LIMITS.header_timeout;
    let mut head = Vec::with_capacity(512);
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && !head.windows(2).any(|w| w == b"\n\n") {
        let left = deadline.checked_duration_since(Instant::now())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok()?;
        let n = stream.read(&mut buf).ok()?;
        if n == 0 || head.len() + n > MAX_HEAD {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

/// Reads one request from `stream` and answers it.
fn answer(stream: &TcpStream, scrape: &Shared) -> std::io::Result<()> {
    let Some(head) = read_head(stream) else {
        return Ok(());
    };
    stream.set_write_timeout(Some(LIMITS.header_timeout))?;
    let mut lines = head.lines();
    let mut request = lines.next().unwrap_or("").split_whitespace();
    let (method, target) = (request.next().unwrap_or(""), request.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return respond_with(
            stream,
            false,
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            &[("Allow", "GET, HEAD")],
            "only GET and HEAD\n",
        );
    }
    match path {
        "/metrics" => {
            // Prometheus asks for OpenMetrics; anything else (curl, promtool) gets the classic
            // format.
            let openmetrics = lines.any(|l| {
                l.split_once(':').is_some_and(|(k, v)| {
                    k.trim().eq_ignore_ascii_case("accept")
                        && v.contains("application/openmetrics-text")
                })
            });
            let body = scrape
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .metrics();
            if openmetrics {
                respond(
                    stream,
                    head_only,
                    "200 OK",
                    export::live::CONTENT_TYPE,
                    &body,
                )
            } else {
                let body = export::live::classic(&body);
                let ct = export::live::CLASSIC_CONTENT_TYPE;
                respond(stream, head_only, "200 OK", ct, &body)
            }
        }
        "/" => respond(
            stream,
            head_only,
            "200 OK",
            "text/html; charset=utf-8",
            "<!doctype html><title>boardbench monitor</title>\
             <p>boardbench monitor: <a href=\"/metrics\">/metrics</a></p>\n",
        ),
        _ => respond(
            stream,
            head_only,
            "404 Not Found",
            "text/plain; charset=utf-8",
            "not found\n",
        ),
    }
}

fn respond(
    stream: &TcpStream,
    head_only: bool,
    status: &str,
    content_type: &str,
    body: &str,
) -> std::io::Result<()> {
    respond_with(stream, head_only, status, content_type, &[], body)
}

/// Writes one answer and closes the connection (one request per connection).
fn respond_with(
    mut stream: &TcpStream,
    head_only: bool,
    status: &str,
    content_type: &str,
    extra: &[(&str, &str)],
    body: &str,
) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in extra {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    if !head_only {
        out.push_str(body);
    }
    stream.write_all(out.as_bytes())?;
    stream.flush()?;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::machine::{Cluster, MachineInfo};
    use document::samples::{ClockColumns, MonitorLayout, MonitoredCluster};

    #[test]
    fn cpus_are_named_by_their_clusters_first_cpu() {
        let cluster = |cpus: Vec<u32>| Cluster {
            cpus,
            ..Default::default()
        };
        let machine = MachineInfo {
            clusters: vec![cluster(vec![0, 1, 2, 3]), cluster(vec![4, 5])],
            ..Default::default()
        };
        let monitored = |first_cpu| MonitoredCluster {
            first_cpu,
            policy: None,
            max_khz: None,
        };
        let layout = MonitorLayout {
            columns: ClockColumns::BigLittle,
            // cpu4 offline: the cluster's column shows cpu5.
            clusters: vec![monitored(0), monitored(5)],
            display_order: vec![1, 0],
            thermal_path: None,
            raspberry_pi: false,
        };
        let names = cluster_names(&machine, &layout);
        assert_eq!(names.get(&2).map(String::as_str), Some("cpu0"));
        assert_eq!(names.get(&4).map(String::as_str), Some("cpu5"));
        assert_eq!(names.get(&6), None);
    }
}
