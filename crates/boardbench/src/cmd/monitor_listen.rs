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
//! HTTP is axum on a current-thread tokio runtime, served through the `connections` crate as the
//! results service is: every connection its own task, at most [`LIMITS`]`.max_connections` at
//! once (one more is answered 503), the request head within `header_timeout` (a connection held
//! half-open ends there and never delays a scrape: the others are answered meanwhile), one
//! request per connection (`Connection: close`). Three answers: `/metrics` (OpenMetrics when the
//! scraper asks for it, as Prometheus does, else the classic text format for curl and promtool),
//! `/` (a small page), 404 for any other path, 405 for any other method. Reading the machine is
//! done one scrape at a time (a mutex around the sampler, on tokio's blocking threads), and every
//! thread runs at nice 19 on the host (set before any thread starts, since Linux keeps a nice
//! value per thread): never compete with what is observed.
//!
//! SIGINT, SIGTERM and SIGHUP end it as they end the text monitor: requests in flight are
//! finished (at most [`LIMITS`]`.shutdown_deadline`, reads of the machine are given up at once),
//! and the exit status is 128 + the signal (130 for Ctrl-C, 143 for SIGTERM). A second signal
//! ends it at once.

use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use connections::{Busy, ConnectionLimits, Event};
use export::live::CpuTicks;
use probe::sampler::{Sampler, SamplerConfig};

use crate::cli::Globals;

/// The request head within 5 s, 32 connections at once (a board is scraped by one or two
/// servers), and 1 s for requests in flight after a signal (a scrape takes milliseconds); one
/// request per connection.
pub const LIMITS: ConnectionLimits = ConnectionLimits {
    header_timeout: Duration::from_secs(5),
    max_connections: 32,
    max_per_address: 0,
    shutdown_deadline: Duration::from_secs(1),
    keep_alive: false,
    busy: Busy {
        content_type: "text/plain; charset=utf-8",
        body: "too many connections\n",
    },
};

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
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the HTTP runtime")?;
    let app = Router::new().fallback(answer).with_state(scrape);
    eprintln!("monitor: serving Prometheus metrics on http://{bound}/metrics (Ctrl-C ends)");
    let served = rt.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let stop = Arc::clone(&signal);
        let until_signal = async move {
            while stop.load(Ordering::Relaxed) == 0 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        connections::serve(listener, app, &LIMITS, until_signal, say).await;
        Ok::<(), std::io::Error>(())
    });
    // Requests in flight were finished within the deadline; a read of the machine that still
    // hangs (given up through the probe's cancel flag) is not waited for.
    rt.shutdown_background();
    served?;
    Ok(128 + signal.load(Ordering::Relaxed) as i32)
}

/// What the connection handling reports, on stderr (an accept error is retried silently, as
/// the connection it was is gone).
fn say(event: Event<'_>) {
    match event {
        // No per-address cap here (LIMITS.max_per_address is 0).
        Event::AcceptError(_) | Event::AddressLimit { .. } => {}
        Event::ConnectionLimit { max_connections } => eprintln!(
            "monitor: {max_connections} connections open; further ones are answered 503 until one closes"
        ),
        Event::ShutdownDeadline { deadline } => eprintln!(
            "monitor: connections still open after {} s were closed",
            deadline.as_secs_f64()
        ),
    }
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

/// Answers one request: `/metrics`, `/`, 404 for any other path, 405 for any method but GET
/// and HEAD (HEAD: the headers of GET's answer, hyper leaves the body out).
async fn answer(
    State(scrape): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    const TEXT: &str = "text/plain; charset=utf-8";
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::CONTENT_TYPE, TEXT), (header::ALLOW, "GET, HEAD")],
            "only GET and HEAD\n",
        )
            .into_response();
    }
    match uri.path() {
        "/metrics" => {
            // Prometheus asks for OpenMetrics; anything else (curl, promtool) gets the classic
            // format.
            let openmetrics = headers.get_all(header::ACCEPT).iter().any(|v| {
                v.to_str()
                    .is_ok_and(|v| v.contains("application/openmetrics-text"))
            });
            // Reading the machine blocks (files, vcgencmd): on a thread of tokio's blocking
            // pool, so that the runtime goes on accepting and timing out connections.
            let read = tokio::task::spawn_blocking(move || {
                scrape
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .metrics()
            });
            let Ok(body) = read.await else {
                return (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    [(header::CONTENT_TYPE, TEXT)],
                    "reading the machine failed\n",
                )
                    .into_response();
            };
            if openmetrics {
                ([(header::CONTENT_TYPE, export::live::CONTENT_TYPE)], body).into_response()
            } else {
                let body = export::live::classic(&body);
                (
                    [(header::CONTENT_TYPE, export::live::CLASSIC_CONTENT_TYPE)],
                    body,
                )
                    .into_response()
            }
        }
        "/" => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<!doctype html><title>boardbench monitor</title>\
             <p>boardbench monitor: <a href=\"/metrics\">/metrics</a></p>\n",
        )
            .into_response(),
        _ => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, TEXT)],
            "not found\n",
        )
            .into_response(),
    }
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
