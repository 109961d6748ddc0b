//! `boardbench monitor --listen ADDR`: the live monitor served as Prometheus metrics, for lab
//! dashboards that watch boards for weeks.
//!
//! The machine is read only when a scrape asks (GET /metrics): one sample of the same sampler
//! the text view uses (clock per cluster, temperature, load, CPU states since the previous
//! scrape), the x86 thermal_throttle counters and, on a Raspberry Pi, `get_throttled`'s flags
//! — all through `probe::Root`, so `--sysroot` serves a fixture tree. Between scrapes the
//! process sleeps in accept(). The server is a few lines of std: one request at a time (a
//! scrape is small and Prometheus does not scrape one target in parallel), 5 s to send the
//! request, HTTP/1.0-style answers with Connection: close. OpenMetrics when the scraper asks for it
//! (Prometheus does), else the classic text format (curl, promtool). The names are in `export::live`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use anyhow::Context;
use probe::sampler::{Sampler, SamplerConfig};

use crate::cli::Globals;

/// Everything a scrape reads through.
struct Scrape {
    root: probe::Root,
    sampler: Sampler,
    rpi: Option<probe::rpi::VcGenCmd>,
}

impl Scrape {
    fn metrics(&mut self) -> String {
        let sample = self.sampler.sample();
        let mut notes = probe::Notes(Vec::new());
        let thermal_throttle = probe::runstate::x86::read_thermal_throttle(&self.root, &mut notes);
        let rpi_throttled = self.rpi.as_mut().and_then(|vc| vc.throttled().ok());
        export::live::metrics(&export::live::LiveReading {
            layout: self.sampler.layout().clone(),
            sample,
            thermal_throttle,
            rpi_throttled,
        })
    }
}

pub fn serve(addr: SocketAddr, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    let machine = probe::snapshot::take(&root);
    let config = SamplerConfig::from_machine(&machine);
    let sampler = super::monitor::sampler_for(&config, &root);
    let rpi = sampler
        .layout()
        .raspberry_pi
        .then(|| probe::rpi::VcGenCmd::for_root(&root));
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    if root.is_host() {
        // Never compete with what is being observed (as the text view).
        // SAFETY: setpriority only changes this process's nice value.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
    eprintln!("monitor: serving Prometheus metrics on http://{bound}/metrics (Ctrl-C ends)");
    let mut scrape = Scrape { root, sampler, rpi };
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                if let Err(e) = answer(s, &mut scrape) {
                    eprintln!("monitor: a request failed: {e}");
                }
            }
            Err(e) => eprintln!("monitor: accept failed: {e}"),
        }
    }
    Ok(0)
}

/// Reads one request (its head, at most 8 KiB) and answers it.
fn answer(mut s: TcpStream, scrape: &mut Scrape) -> std::io::Result<()> {
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    s.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && !head.windows(2).any(|w| w == b"\n\n") {
        let n = s.read(&mut buf)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
        if head.len() > 8192 {
            return respond(
                &mut s,
                "431 Request Header Fields Too Large",
                "text/plain",
                "",
                true,
            );
        }
    }
    let head = String::from_utf8_lossy(&head);
    let mut words = head.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let with_body = method != "HEAD";
    // Prometheus asks for OpenMetrics; anything else (curl, promtool) gets the classic format.
    let openmetrics = head.lines().any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.eq_ignore_ascii_case("accept") && v.contains("application/openmetrics-text")
        })
    });
    match (method, path) {
        ("GET" | "HEAD", "/metrics") => {
            let body = scrape.metrics();
            if openmetrics {
                respond(
                    &mut s,
                    "200 OK",
                    export::live::CONTENT_TYPE,
                    &body,
                    with_body,
                )
            } else {
                let body = export::live::classic(&body);
                let ct = export::live::CLASSIC_CONTENT_TYPE;
                respond(&mut s, "200 OK", ct, &body, with_body)
            }
        }
        ("GET" | "HEAD", "/") => respond(
            &mut s,
            "200 OK",
            "text/html; charset=utf-8",
            "<!doctype html><title>boardbench monitor</title>\
             <p>boardbench monitor: <a href=\"/metrics\">/metrics</a></p>\n",
            with_body,
        ),
        ("GET" | "HEAD", _) => respond(
            &mut s,
            "404 Not Found",
            "text/plain",
            "not found\n",
            with_body,
        ),
        _ => respond(
            &mut s,
            "405 Method Not Allowed",
            "text/plain",
            "only GET and HEAD\n",
            true,
        ),
    }
}

fn respond(
    s: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &str,
    with_body: bool,
) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    if with_body {
        out.extend_from_slice(body.as_bytes());
    }
    s.write_all(&out)?;
    s.flush()
}
