//! The OpenSSL speed table: `openssl speed -elapsed -mr -evp <alg>` for AES-128/192/256 in CBC
//! and ECB, AES-128-GCM, ChaCha20-Poly1305, SHA-256 and SHA-512 at block sizes 16 … 16384, in
//! OpenSSL's unit (1000s of bytes per second, the guides' "KBytes/Sec"), once on one pinned
//! core and once with `-multi N` over all allowed CPUs (the children's sum). For every
//! algorithm the CPU load is the child's CPU time (user + system, from wait4) over its wall
//! time — what `time -v` prints as "Percent of CPU this job got": near 100 % per process for
//! software crypto, lower when an accelerator does the work while the process sleeps.
//!
//! The system's `openssl` is used for parity with published tables; its absence skips the
//! section. The output is parsed from `-mr` (bytes/s, no `k` suffix ambiguity) by
//! `adapters::openssl::parse_mr`.
//!
//! Software and offload side by side: besides OpenSSL's default provider, every offload the
//! system offers gets its own single-core tables ("OpenSSL Performance (afalg engine)"): the
//! `afalg` and `devcrypto` engines where `openssl engine -t ID` says `[ available ]` (the kernel's
//! AF_ALG or /dev/crypto with a driver behind it), and any provider `openssl list -providers`
//! shows active beyond OpenSSL's own (default, base, legacy, fips, null), run with
//! `-provider NAME`. The CPU Load table beside each shows what the offload saves. Detection is
//! parsed from the tools' text ([`parse_providers`], [`engine_available`]), so tests use
//! recorded outputs.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

use adapters::openssl::{self as ossl, Version};
use adapters::{SearchPath, SystemRunner};
use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::child_cpu::{self, ChildRun};
use crate::registry::Outcome;
use crate::{Context, pinning};

/// The algorithms of the table, in its order.
pub const ALGORITHMS: &[&str] = &[
    "aes-128-cbc",
    "aes-128-ecb",
    "aes-192-cbc",
    "aes-192-ecb",
    "aes-256-cbc",
    "aes-256-ecb",
    "aes-128-gcm",
    "chacha20-poly1305",
    "sha256",
    "sha512",
];
/// OpenSSL's block sizes since 1.1.0.
pub const SIZES: &[u32] = &[16, 64, 256, 1024, 8192, 16384];

/// One `openssl speed` command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeedRun {
    pub algorithm: String,
    /// `-seconds N` (OpenSSL ≥ 1.1.1); None = OpenSSL's default (3 s).
    pub seconds: Option<u32>,
    /// `-bytes N`: one block size only (OpenSSL ≥ 1.1.1).
    pub bytes: Option<u32>,
    /// `-multi N`: N forked children, results summed.
    pub multi: Option<u32>,
    /// Where the crypto runs; [`Backend::Default`] adds nothing.
    pub backend: Backend,
}

/// Which implementation `openssl speed` uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Backend {
    /// OpenSSL's own software (its default provider, or no engine before 3.0).
    #[default]
    Default,
    /// `-engine ID` (afalg, devcrypto).
    Engine(String),
    /// `-provider NAME` (OpenSSL 3).
    Provider(String),
}

impl Backend {
    /// The tables' title suffix: "" for the default, " (afalg engine)", " (NAME provider)".
    pub fn suffix(&self) -> String {
        match self {
            Backend::Default => String::new(),
            Backend::Engine(e) => format!(" ({e} engine)"),
            Backend::Provider(p) => format!(" ({p} provider)"),
        }
    }

    fn args(&self) -> Vec<String> {
        match self {
            Backend::Default => Vec::new(),
            Backend::Engine(e) => vec!["-engine".into(), e.clone()],
            Backend::Provider(p) => vec!["-provider".into(), p.clone()],
        }
    }
}

/// The engines that move crypto to the kernel's drivers.
pub const OFFLOAD_ENGINES: [&str; 2] = ["afalg", "devcrypto"];

/// OpenSSL's own providers: software, not an offload.
const OWN_PROVIDERS: [&str; 5] = ["default", "base", "legacy", "fips", "null"];

/// The providers `openssl list -providers` shows (`  NAME` lines, each followed by indented
/// `name:`, `version:`, `status:`), with whether each is active.
pub fn parse_providers(text: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.ends_with("Providers:") {
            continue;
        }
        if indent <= 2 && !t.contains(':') {
            out.push((t.to_string(), false));
        } else if let Some(st) = t.strip_prefix("status:")
            && let Some(last) = out.last_mut()
        {
            last.1 = st.trim() == "active";
        }
    }
    out
}

/// Whether `openssl engine -t ID`'s output says the engine is usable (`[ available ]`); an
/// engine that cannot load prints errors and no such line.
pub fn engine_available(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "[ available ]")
}

/// The offload backends from the tools' outputs: available engines (`-t` outputs by id, in
/// [`OFFLOAD_ENGINES`] order), then active providers that are not OpenSSL's own.
pub fn offloads(providers: &str, engines: &[(&str, &str)]) -> Vec<Backend> {
    let mut out: Vec<Backend> = engines
        .iter()
        .filter(|(_, text)| engine_available(text))
        .map(|(id, _)| Backend::Engine((*id).to_string()))
        .collect();
    out.extend(
        parse_providers(providers)
            .into_iter()
            .filter(|(name, active)| *active && !OWN_PROVIDERS.contains(&name.as_str()))
            .map(|(name, _)| Backend::Provider(name)),
    );
    out
}

impl SpeedRun {
    /// `speed -elapsed [-seconds S] [-bytes B] [-multi N] -mr -evp ALG`.
    pub fn args(&self) -> Vec<String> {
        let mut a = vec!["speed".to_string(), "-elapsed".to_string()];
        if let Some(s) = self.seconds {
            a.extend(["-seconds".to_string(), s.to_string()]);
        }
        if let Some(b) = self.bytes {
            a.extend(["-bytes".to_string(), b.to_string()]);
        }
        if let Some(m) = self.multi {
            a.extend(["-multi".to_string(), m.to_string()]);
        }
        a.extend(self.backend.args());
        a.extend([
            "-mr".to_string(),
            "-evp".to_string(),
            self.algorithm.clone(),
        ]);
        a
    }

    /// About how long it takes (for the time limit).
    pub fn expected(&self) -> Duration {
        let per = self.seconds.unwrap_or(3) as u64;
        let sizes = if self.bytes.is_some() {
            1
        } else {
            SIZES.len() as u64
        };
        Duration::from_secs(per * sizes)
    }
}

/// The runs for one algorithm: `--quick` measures 16 and 16384 bytes for 1 s each where
/// OpenSSL has `-bytes`, all sizes for 1 s otherwise; the full table all sizes for 3 s
/// (OpenSSL's default, as the vendor guides) on one core, and 1 s per size with `-multi`.
pub fn plan(alg: &str, version: &Version, quick: bool, multi: Option<u32>) -> Vec<SpeedRun> {
    let seconds_ok = version.supports_seconds();
    let bytes_ok = version.supports_bytes();
    let run = |seconds: u32, bytes: Option<u32>| SpeedRun {
        algorithm: alg.to_string(),
        seconds: seconds_ok.then_some(seconds),
        bytes: if bytes_ok { bytes } else { None },
        multi,
        backend: Backend::Default,
    };
    match (quick, multi.is_some()) {
        (true, false) if bytes_ok => vec![run(1, Some(16)), run(1, Some(16384))],
        (true, true) if bytes_ok => vec![run(1, Some(16384))],
        (true, _) => vec![run(1, None)],
        (false, false) => vec![run(3, None)],
        (false, true) => vec![run(1, None)],
    }
}

/// One algorithm's results: kB/s per block size and the CPU load over its runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AlgResult {
    pub kb_per_s: BTreeMap<u32, f64>,
    pub cpu_load_pct: Option<f64>,
    pub error: Option<String>,
}

/// Folds the runs of one algorithm: values from each run's `-mr` output, CPU load = total CPU
/// time over total wall time of the runs.
pub fn fold(alg: &str, runs: &[ChildRun]) -> AlgResult {
    let mut r = AlgResult::default();
    let (mut cpu, mut wall) = (Duration::ZERO, Duration::ZERO);
    for run in runs {
        if run.killed {
            r.error = Some("ended before it finished".into());
            continue;
        }
        match ossl::parse_mr(&run.stdout) {
            Ok(speed) => {
                for &size in &speed.block_sizes {
                    if let Some(v) = speed.value(alg, size) {
                        r.kb_per_s.insert(size, v);
                    }
                }
                cpu += run.user + run.system;
                wall += run.wall;
            }
            Err(e) => {
                let why = run
                    .stderr
                    .lines()
                    .find(|l| !l.trim().is_empty() && !l.starts_with('+'))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                r.error = Some(format!(
                    "exit {:?}: {}{}",
                    run.code,
                    e.message,
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!(" ({why})")
                    }
                ));
            }
        }
    }
    if !wall.is_zero() {
        r.cpu_load_pct = Some(child_cpu::cpu_load_pct(cpu, wall));
    }
    r
}

/// The guides' two tables for one set of results: throughput rows (algorithm, size as a
/// cell) with sizes in the seed's (string) order, and the CPU load per algorithm.
pub fn tables(results: &[(String, AlgResult)], suffix: &str) -> (GuideTable, GuideTable) {
    let mut perf = GuideTable {
        title: format!("OpenSSL Performance{suffix}"),
        key_header: "Algorithm".into(),
        key_headers: vec!["Buffer Size (in bytes)".into()],
        columns: vec!["throughput (KBytes/Sec)".into()],
        rows: Vec::new(),
    };
    let mut load = GuideTable {
        title: format!("OpenSSL CPU Load{suffix}"),
        key_header: "Algorithm".into(),
        key_headers: Vec::new(),
        columns: vec!["CPU Load".into()],
        rows: Vec::new(),
    };
    let mut sorted: Vec<&(String, AlgResult)> = results.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (alg, r) in sorted {
        let mut sizes: Vec<&u32> = r.kb_per_s.keys().collect();
        sizes.sort_by_key(|s| s.to_string());
        for s in sizes {
            perf.rows.push(GuideRow {
                key: alg.clone(),
                keys: vec![s.to_string()],
                cells: vec![Some(GuideValue::one(r.kb_per_s[s]))],
            });
        }
        load.push(alg.clone(), r.cpu_load_pct.map(GuideValue::one));
    }
    (perf, load)
}

/// The offloads this system's openssl offers (see the module's notes); each probe is bounded to a
/// few seconds.
fn detect_offloads(ctx: &Context, openssl: &std::path::Path) -> Vec<Backend> {
    let out = |args: &[&str]| {
        let mut cmd = Command::new(openssl);
        cmd.args(args);
        crate::exec::run(&mut cmd, Duration::from_secs(5), &ctx.cancel)
            .map(|r| format!("{}{}", r.stdout, r.stderr))
            .unwrap_or_default()
    };
    let providers = out(&["list", "-providers"]);
    let engines: Vec<(&str, String)> = OFFLOAD_ENGINES
        .iter()
        .map(|id| (*id, out(&["engine", "-t", id])))
        .collect();
    let engines: Vec<(&str, &str)> = engines.iter().map(|(i, t)| (*i, t.as_str())).collect();
    offloads(&providers, &engines)
}

/// The section.
pub fn section(ctx: &Context) -> Outcome {
    let sp = SearchPath::from_env();
    let found = match ossl::find(&sp, &SystemRunner) {
        Ok(f) => f,
        Err(skip) => return Outcome::skipped(skip.reason),
    };
    let (cpu, _) = pinning::single_thread_cpu(ctx);
    let mut out = Outcome {
        tool: Some(found.version.label()),
        ..Default::default()
    };
    let all: Vec<u32> = if ctx.cpus.is_empty() {
        vec![cpu]
    } else {
        ctx.cpus.clone()
    };
    let mut passes: Vec<(Option<u32>, &[u32], String, Backend)> = vec![(
        None,
        std::slice::from_ref(&cpu),
        String::new(),
        Backend::Default,
    )];
    if all.len() > 1 {
        passes.push((
            Some(all.len() as u32),
            &all,
            " (all cores)".into(),
            Backend::Default,
        ));
    }
    let offload = detect_offloads(ctx, &found.tool.path);
    for b in &offload {
        passes.push((None, std::slice::from_ref(&cpu), b.suffix(), b.clone()));
    }
    let mut errors = Vec::new();
    for (multi, cpus, suffix, backend) in passes {
        let suffix = suffix.as_str();
        let mut results = Vec::new();
        for alg in ALGORITHMS {
            if ctx.cancelled() {
                break;
            }
            let mut runs = Vec::new();
            for mut run in plan(alg, &found.version, ctx.quick, multi) {
                run.backend = backend.clone();
                let mut cmd = Command::new(&found.tool.path);
                cmd.args(run.args());
                let limit = run.expected() * 3 + Duration::from_secs(30);
                match child_cpu::run(&mut cmd, Some(cpus), limit, &|| ctx.cancelled()) {
                    Ok(r) => runs.push(r),
                    Err(e) => errors.push(format!("{alg}: cannot run openssl: {e}")),
                }
                if ctx.cancelled() {
                    break;
                }
            }
            let r = fold(alg, &runs);
            if let Some(e) = &r.error
                && !ctx.cancelled()
            {
                errors.push(format!("{alg}{suffix}: {e}"));
            }
            if !r.kb_per_s.is_empty() {
                results.push((alg.to_string(), r));
            }
        }
        if !results.is_empty() {
            let (perf, load) = tables(&results, suffix);
            out.tables.push(perf);
            out.tables.push(load);
        }
    }
    let single = if ctx.quick && found.version.supports_bytes() {
        "16 and 16384 bytes, 1 s each"
    } else if ctx.quick {
        "all sizes, 1 s each"
    } else {
        "all sizes, 3 s each (OpenSSL's default)"
    };
    out.notes.push(format!(
        "{} `openssl speed -elapsed -mr -evp <alg>`: one process pinned to CPU {cpu} ({single}){}. KBytes/Sec = 1000s of bytes per second (OpenSSL's unit). CPU Load = (user + system CPU time) / wall time of the openssl process(es), as `time -v` reports it (100 % = one CPU busy).",
        found.version.label(),
        if all.len() > 1 {
            format!(
                "; all cores: `-multi {}` on CPUs {:?}, the children's sum ({})",
                all.len(),
                all,
                if ctx.quick && found.version.supports_bytes() {
                    "16384 bytes, 1 s"
                } else {
                    "all sizes, 1 s each"
                }
            )
        } else {
            String::new()
        }
    ));
    out.notes.push(if offload.is_empty() {
        format!(
            "offload: none offered (no {} engine available, no provider beyond OpenSSL's own active): the tables are software only",
            OFFLOAD_ENGINES.join(" or ")
        )
    } else {
        format!(
            "offload beside the software tables: {}, one process on CPU {cpu}, the same runs with `-engine ID` or `-provider NAME`",
            offload
                .iter()
                .map(|b| b.suffix().trim().trim_matches(['(', ')']).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    if !errors.is_empty() {
        out.notes
            .push(format!("not measured: {}", errors.join("; ")));
    }
    if out.tables.is_empty() && !ctx.cancelled() {
        out.failed = Some(format!("no algorithm measured: {}", errors.join("; ")));
    }
    out
}
