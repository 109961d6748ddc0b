//! The benchmarks of one planned phase: the built-in kernels (clock, memory, SHA-256) and the external
//! tools (OpenSSL, 7-Zip, Stockfish, cpuminer) through their adapters. Each function returns an
//! [`Outcome`] — figures, raw results, tool output — and never prints; the binary's `run::execute` wraps
//! it with the phase's monitor and timestamps.

use std::time::Duration;

use adapters::tool::{Runner, Skip};
use adapters::{RunContext, cpuminer, openssl, sevenzip, stockfish};
use document::Measurement;
use document::measure::clock::ClockReading;
use document::run::{PhaseStatus, ToolRun};

use crate::plan::{Planned, Profile};
use crate::{BenchContext, invocations};

/// What a phase produced.
#[derive(Debug, Default)]
pub struct Outcome {
    pub status: PhaseStatus,
    pub reason: Option<String>,
    pub measurements: Vec<Measurement>,
    pub tool_runs: Vec<ToolRun>,
    pub clock: Vec<ClockReading>,
    pub membw: Option<document::measure::membw::MembwResult>,
    pub memlat: Option<document::measure::memlat::MemlatResult>,
    pub sha256: Option<document::measure::sha256::Sha256Report>,
}

impl Outcome {
    pub fn skipped(reason: impl Into<String>) -> Self {
        Outcome {
            status: PhaseStatus::Skipped,
            reason: Some(reason.into()),
            ..Outcome::default()
        }
    }

    fn failed(reason: impl Into<String>) -> Self {
        Outcome {
            status: PhaseStatus::Failed,
            reason: Some(reason.into()),
            ..Outcome::default()
        }
    }
}

fn row(suite: &str, test: &str, threads: u32, cpus: &[u32], value: f64, unit: &str) -> Measurement {
    Measurement::new(suite, test, threads, value, unit).with_cpus(cpus)
}

/// The phase function for a kind. `earlier` and `measurements` are what the run has so far
/// (a phase planned [`Planned::unless_agree_pct`] is left out when earlier runs agree).
pub fn run(
    env: &BenchContext<'_>,
    p: &Planned,
    earlier: &[document::run::Phase],
    measurements: &[Measurement],
) -> Outcome {
    use document::run::kind;
    if let Some(reason) = needless(p, earlier, measurements) {
        return Outcome::skipped(reason);
    }
    match p.kind {
        kind::CLOCK => clock(env, p, false),
        kind::CLOCK_HOT => clock(env, p, true),
        kind::MEMBW => membw(env, p),
        kind::MEMLAT => memlat(env, p),
        kind::SHA256 => sha256(env, p),
        kind::OPENSSL | kind::OPENSSL_PARALLEL => run_openssl(env, p),
        kind::SEVENZIP_SINGLE | kind::SEVENZIP_MULTI | kind::SEVENZIP_CLUSTER => {
            run_sevenzip(env, p)
        }
        kind::STOCKFISH => run_stockfish(env, p),
        kind::CPUMINER => run_cpuminer(env, p),
        other => Outcome::skipped(format!("unknown phase kind {other}")),
    }
}

/// Why `p` need not run: the earlier runs of its kind agree within its tolerance.
fn needless(
    p: &Planned,
    earlier: &[document::run::Phase],
    measurements: &[Measurement],
) -> Option<String> {
    let pct = p.unless_agree_pct?;
    let totals: Vec<f64> = earlier
        .iter()
        .filter(|e| e.kind == p.kind && e.status == PhaseStatus::Done)
        .filter_map(|e| {
            e.measurements
                .iter()
                .filter_map(|&i| measurements.get(i))
                .find(|m| m.test == sevenzip::test_names::TOTAL_RATING)
                .map(|m| m.value)
        })
        .collect();
    invocations::agree(&totals, pct).then(|| {
        format!(
            "not needed: the earlier runs agree within {pct} % ({}), a further run would not \
             move their average",
            totals
                .iter()
                .map(|v| format!("{v:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

// ---------------------------------------------------------------- clock

fn clock(env: &BenchContext<'_>, p: &Planned, hot: bool) -> Outcome {
    let Some(&cpu) = p.cpus.first() else {
        return Outcome::skipped("no CPU");
    };
    let host = env.host_cpu(cpu);
    let samples = if env.settings.tiny { 1 } else { 3 };
    let policy = env
        .machine
        .policies
        .iter()
        .find(|pol| pol.affected_cpus.contains(&cpu) || pol.related_cpus.contains(&cpu));
    let mut out = Outcome::default();
    let target = |opp_khz: Option<u64>| measure::clock_reading::Target {
        cpu: host,
        policy: policy.map(|p| p.policy),
        opp_khz,
    };
    let opts = measure::clock_reading::ReadingOptions::samples(samples);
    let walk =
        !hot && env.settings.opp_walk && policy.is_some_and(|p| !p.frequencies_khz.is_empty());
    let result: anyhow::Result<()> = (|| {
        match (walk, policy) {
            (true, Some(pol)) => {
                let walk = measure::opp_walk::WalkOptions {
                    max_khz: env.settings.max_khz,
                    min_khz: env.settings.min_khz,
                    limit: (env.settings.profile == Profile::Quick).then_some(1),
                    ..Default::default()
                };
                // The walk decides on the governor as it is now (the run's tuning may have
                // set it since the machine was read), so it writes nothing it need not.
                let mut pol = pol.clone();
                let gov = format!(
                    "{}/scaling_governor",
                    probe::cpufreq::policy_dir(env.root, pol.policy)
                );
                if let Ok(g) = env.root.read_value(&gov) {
                    pol.governor = Some(g);
                }
                let pol = &pol;
                let mut writer = crate::opp_writer::RestorerWrites(env.restorer);
                measure::opp_walk::walk(env.root, pol, host, &walk, &mut writer, |_, opp| {
                    let mut r = measure::clock_reading::reading(target(Some(opp)), &opts)?;
                    r.cpu = cpu;
                    out.clock.push(r);
                    Ok::<_, anyhow::Error>(())
                })?;
                // Back to full speed (within MaxKHz) for the phases that follow.
                measure::opp_walk::uncap(env.root, pol, &walk, &mut writer)?;
            }
            _ => {
                let opp = policy.and_then(|p| {
                    let cap = p.scaling_max_khz.or(p.cpuinfo_max_khz)?;
                    Some(env.settings.max_khz.map_or(cap, |m| cap.min(m)))
                });
                let mut r = measure::clock_reading::reading(target(opp), &opts)?;
                r.cpu = cpu;
                out.clock.push(r);
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        if out.clock.is_empty() {
            return Outcome::failed(format!("{e:#}"));
        }
        out.reason = Some(format!("OPP walk stopped: {e:#}"));
    }
    if let Some(top) = out.clock.first() {
        let mut m = row(
            if hot { "clock-hot" } else { "clock" },
            &format!("cpu{cpu}"),
            1,
            &[cpu],
            top.mhz,
            "MHz",
        );
        m.spread_pct = top.spread_pct;
        out.measurements.push(m);
    }
    out
}

// ---------------------------------------------------------------- memory

fn membw(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    use loops::membw::{self, Config};
    let cpu = env.host_cpu(p.cpus[0]);
    let mut cfg = Config::quick();
    let all = membw::available_variants();
    let variants: Vec<_> = if invocations::membw_libc_only(env.settings.profile, env.settings.tiny)
    {
        all.into_iter()
            .filter(|v| v.name == membw::LIBC_MEMCPY || v.name == membw::LIBC_MEMSET)
            .collect()
    } else {
        all
    };
    if env.settings.tiny {
        cfg.buffer_bytes = 1 << 20;
        cfg.batch_ns = 2_000_000;
        cfg.min_samples = 1;
        cfg.max_samples = 2;
        cfg.headline_tinymembench = false;
    }
    match membw::run(&[cpu], &variants, &cfg, "quick", None) {
        Ok(mut r) => {
            r.cpus = p.cpus.clone();
            let mut out = Outcome::default();
            for t in &r.tests {
                let mut m = row("membw", &t.name, 1, &p.cpus, t.best_mb_s, "MB/s");
                m.spread_pct = t.spread_pct;
                out.measurements.push(m);
            }
            out.membw = Some(r);
            out
        }
        Err(e) => Outcome::failed(e),
    }
}

fn memlat(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    use loops::memlat::{self, Config};
    let cpu = env.host_cpu(p.cpus[0]);
    let mut cfg = Config::standard();
    if env.settings.tiny {
        cfg.max_size = 1 << 20;
        cfg.chains = vec![1];
        cfg.cell_ns = 2_000_000;
        cfg.runs_per_cell = 2;
        cfg.random = false;
    }
    let advertised = measure::caches::advertised(env.root, p.cpus[0]);
    match memlat::run(&[cpu], &cfg, true, &advertised) {
        Ok(mut r) => {
            r.cpus = p.cpus.clone();
            let mut out = Outcome::default();
            if let Some(c) = &r.caches {
                for l in &c.levels {
                    let mut m = row(
                        "memlat",
                        &format!("L{} latency", l.level),
                        1,
                        &p.cpus,
                        l.latency_ns,
                        "ns",
                    );
                    m.higher_is_better = false;
                    out.measurements.push(m);
                }
                if let Some(ns) = c.beyond_ns {
                    let mut m = row("memlat", "RAM latency", 1, &p.cpus, ns, "ns");
                    m.higher_is_better = false;
                    out.measurements.push(m);
                }
            }
            out.memlat = Some(r);
            out
        }
        Err(e) => Outcome::failed(e),
    }
}

// ---------------------------------------------------------------- SHA-256

fn sha256(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    let (iterations, runs) = invocations::sha256_work(env.settings.profile, env.settings.tiny);
    let opts = measure::sha256::Sha256Options {
        runs,
        // The run reports Fast and Reference; Portable only where it is all there is.
        portable: false,
        ..measure::sha256::Sha256Options::new(env.host_cpu(p.cpus[0]), iterations)
    };
    match measure::sha256::run(&opts, &mut |_| {}) {
        Ok(mut r) => {
            r.cpu = p.cpus.first().copied();
            let mut out = Outcome::default();
            let best = r.fast.as_ref().unwrap_or(&r.reference);
            let variant = format!("{:?}", best.backend);
            let mut m = row("sha256", "recursive", 1, &p.cpus, best.mhs, "MH/s");
            m.variant = Some(variant.clone());
            m.spread_pct = best.spread_pct;
            out.measurements.push(m);
            if let Some(per) = best.mhs_per_100mhz {
                let mut m = row("sha256", "recursive per 100 MHz", 1, &p.cpus, per, "MH/s");
                m.variant = Some(variant);
                out.measurements.push(m);
            }
            if !measure::sha256::all_verified(&r) {
                out.reason = Some("digest verification failed".into());
                out.status = PhaseStatus::Failed;
            }
            out.sha256 = Some(r);
            out
        }
        Err(e) => Outcome::failed(format!("{e:#}")),
    }
}

// ---------------------------------------------------------------- external tools

/// Runs an invocation and records it as a [`ToolRun`].
fn run_tool(
    env: &BenchContext<'_>,
    tool: &str,
    version: Option<String>,
    comparable: Option<bool>,
    inv: adapters::tool::Invocation,
) -> Result<(ToolRun, String), String> {
    let command = inv.command_line();
    let program = inv.program.display().to_string();
    match env.runner.run(&inv) {
        Ok(o) => {
            let text = o.combined();
            let tr = ToolRun {
                tool: tool.into(),
                program,
                version,
                comparable_with_sbc_bench: comparable,
                command,
                end: o.describe_end(),
                output: text.clone(),
                wall_s: o.wall.as_secs_f64(),
            };
            Ok((tr, o.stdout))
        }
        Err(e) => Err(format!("{command}: {e}")),
    }
}

fn pinned_cpus(env: &BenchContext<'_>, p: &Planned) -> Vec<u32> {
    let mut v: Vec<u32> = p.cpus.iter().map(|&c| env.host_cpu(c)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn run_openssl(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    let found = match &env.tools.openssl {
        Ok(f) => f,
        Err(s) => return Outcome::skipped(s.to_string()),
    };
    let mut ciphers = vec!["aes-128-cbc", "aes-192-cbc", "aes-256-cbc"];
    if env.settings.profile == Profile::Extensive {
        ciphers.push("aes-256-gcm");
    }
    let mut out = Outcome::default();
    let label = found.version.label();
    let parallel = p.kind == document::run::kind::OPENSSL_PARALLEL;
    for cipher in ciphers {
        let opts = invocations::openssl(
            env.settings.profile,
            env.settings.tiny,
            &found.version,
            cipher,
        );
        let targets: Vec<Vec<u32>> = if parallel {
            pinned_cpus(env, p).into_iter().map(|c| vec![c]).collect()
        } else {
            vec![pinned_cpus(env, p)]
        };
        // All-core parallel runs start together, one pinned process per core.
        let results: Vec<Result<(ToolRun, String), String>> = std::thread::scope(|s| {
            let handles: Vec<_> = targets
                .iter()
                .map(|cpus| {
                    let inv = openssl::invocation(&found.tool, &opts)
                        .pinned(cpus)
                        .search_path(&env.search_path);
                    let version = found.version.version.clone();
                    s.spawn(move || run_tool(env, "OpenSSL", Some(version), None, inv))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("panicked".into())))
                .collect()
        });
        for r in results {
            match r {
                Ok((tr, stdout)) => {
                    match openssl::parse(&stdout) {
                        Ok(speed) => {
                            let ctx = RunContext::pinned(&p.cpus).threads(1).variant(&label);
                            out.measurements.extend(speed.measurements(&ctx));
                        }
                        Err(e) => out.reason = Some(format!("{cipher}: {e}")),
                    }
                    out.tool_runs.push(tr);
                }
                Err(e) => out.reason = Some(e),
            }
        }
        // Ended by a signal (the running `openssl speed` was stopped): the ciphers after it
        // are not started, and the phase is not complete.
        if adapters::tool::ending() {
            out.status = PhaseStatus::Failed;
            out.reason = Some(format!("cut short at {cipher}"));
            return out;
        }
    }
    if out.measurements.is_empty() {
        out.status = PhaseStatus::Failed;
    }
    out
}

fn run_sevenzip(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    use std::sync::atomic::Ordering;
    let found = match &env.tools.sevenzip {
        Ok(f) => f,
        Err(s) => return Outcome::skipped(s.to_string()),
    };
    let avail_kb = env.machine.memory.available_kib.unwrap_or(u64::MAX);
    let mut opts =
        invocations::sevenzip(env.settings.profile, env.settings.tiny, p.threads, avail_kb);
    if env.tools.sevenzip_rejects_time.load(Ordering::Relaxed) {
        opts = opts.without_time();
    }
    let v = &found.version;
    let mut out = Outcome::default();
    let attempt = |opts: &sevenzip::BenchOptions| {
        let mut inv = sevenzip::invocation(&found.tool, opts).search_path(&env.search_path);
        if !p.cpus.is_empty() {
            inv = inv.pinned(&pinned_cpus(env, p));
        }
        run_tool(
            env,
            "7-Zip",
            Some(v.version.clone()),
            Some(v.comparable_with_sbc_bench),
            inv,
        )
    };
    let mut result = attempt(&opts);
    // An older 7-Zip that does not know `-mtime` (the fast profile's shorter repetition) gets
    // sbc-bench's exact invocation instead; the refused attempt stays in the record.
    if opts.seconds.is_some()
        && let Ok((tr, _)) = &result
        && sevenzip::rejects_time_option(&tr.output)
    {
        env.tools
            .sevenzip_rejects_time
            .store(true, Ordering::Relaxed);
        if let Ok((tr, _)) = result {
            out.tool_runs.push(tr);
        }
        result = attempt(&opts.clone().without_time());
    }
    match result {
        Ok((tr, stdout)) => {
            match sevenzip::parse(&stdout) {
                Ok(b) => {
                    let ctx = RunContext::pinned(&p.cpus)
                        .threads(p.threads)
                        .variant(&v.label());
                    out.measurements.extend(b.measurements(&ctx));
                }
                Err(e) => {
                    out.status = PhaseStatus::Failed;
                    out.reason = Some(format!("{} ({})", e, tr.end));
                }
            }
            out.tool_runs.push(tr);
        }
        Err(e) => return Outcome::failed(e),
    }
    out
}

fn run_stockfish(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    let found = match &env.tools.stockfish {
        Ok(f) => f,
        Err(s) => return Outcome::skipped(s.to_string()),
    };
    let opts = invocations::stockfish(env.settings.profile, env.settings.tiny, p.threads);
    let inv = stockfish::invocation(&found.tool, &opts).search_path(&env.search_path);
    let ctx = RunContext::new()
        .threads(p.threads)
        .variant(&found.version.label());
    // Stockfish prints its bench summary on stderr: the combined output has it.
    scored_run(env, "Stockfish", found.version.version.clone(), inv, |o| {
        stockfish::parse(o).map(|b| b.measurements(&ctx))
    })
}

fn run_cpuminer(env: &BenchContext<'_>, p: &Planned) -> Outcome {
    let found = match &env.tools.cpuminer {
        Ok(f) => f,
        Err(s) => return Outcome::skipped(s.to_string()),
    };
    let secs = invocations::cpuminer_seconds(env.settings.profile, env.settings.tiny);
    let inv =
        cpuminer::invocation(&found.tool, Duration::from_secs(secs)).search_path(&env.search_path);
    let ctx = RunContext::new()
        .threads(p.threads)
        .variant(&found.version.label());
    scored_run(env, "cpuminer", found.version.version.clone(), inv, |o| {
        cpuminer::parse(o).map(|b| b.measurements(&ctx))
    })
}

/// Runs a tool once and turns its output into measurements. When the output cannot be read
/// the phase fails but keeps the tool run: its raw output is the evidence.
fn scored_run<E: std::fmt::Display>(
    env: &BenchContext<'_>,
    tool: &str,
    version: String,
    inv: adapters::tool::Invocation,
    measure: impl FnOnce(&str) -> Result<Vec<Measurement>, E>,
) -> Outcome {
    let (tr, _stdout) = match run_tool(env, tool, Some(version), None, inv) {
        Ok(r) => r,
        Err(e) => return Outcome::failed(e),
    };
    let mut out = Outcome::default();
    match measure(&tr.output) {
        Ok(m) => out.measurements.extend(m),
        Err(e) => {
            out.status = PhaseStatus::Failed;
            out.reason = Some(e.to_string());
        }
    }
    out.tool_runs.push(tr);
    out
}

/// The tools found on the search path (once per run).
pub struct Tools {
    pub openssl: Result<adapters::Found<openssl::Version>, Skip>,
    pub sevenzip: Result<adapters::Found<sevenzip::Version>, Skip>,
    /// Set once this 7-Zip has rejected `-mtime` (p7zip 16.02): later runs go without it.
    pub sevenzip_rejects_time: std::sync::atomic::AtomicBool,
    pub stockfish: Result<adapters::Found<stockfish::Version>, Skip>,
    pub cpuminer: Result<adapters::Found<cpuminer::Version>, Skip>,
}

impl Tools {
    pub fn find(
        sp: &adapters::tool::SearchPath,
        runner: &dyn Runner,
        want_sf: bool,
        want_miner: bool,
    ) -> Self {
        let not_asked = |t: &str| Skip::new(t, "not requested (use -s / -c or --extensive)");
        Tools {
            openssl: openssl::find(sp, runner),
            sevenzip: sevenzip::find(sp, runner),
            sevenzip_rejects_time: Default::default(),
            stockfish: if want_sf {
                stockfish::find(sp, runner)
            } else {
                Err(not_asked("stockfish"))
            },
            cpuminer: if want_miner {
                cpuminer::find(sp, runner)
            } else {
                Err(not_asked("cpuminer"))
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::run::{Phase, kind};

    fn multi(total: f64, status: PhaseStatus, rows: &mut Vec<Measurement>) -> Phase {
        rows.push(row("7zip", "total rating", 2, &[], total, "MIPS"));
        Phase {
            kind: kind::SEVENZIP_MULTI.into(),
            status,
            measurements: vec![rows.len() - 1],
            ..Phase::default()
        }
    }

    fn third(pct: Option<f64>) -> Planned {
        Planned {
            kind: kind::SEVENZIP_MULTI,
            title: "7-Zip multi-threaded (run 3 of 3)".into(),
            cluster: None,
            cpus: vec![],
            threads: 2,
            monitor_interval_s: 10.0,
            estimate_s: 40.0,
            unless_agree_pct: pct,
        }
    }

    #[test]
    fn the_third_multi_run_is_left_out_only_when_the_first_two_agree() {
        let mut rows = Vec::new();
        let agree = [
            multi(5200.0, PhaseStatus::Done, &mut rows),
            multi(5230.0, PhaseStatus::Done, &mut rows),
        ];
        let why = needless(&third(Some(1.0)), &agree, &rows).unwrap();
        assert!(why.contains("5200, 5230"), "{why}");
        assert!(needless(&third(None), &agree, &rows).is_none());

        let mut rows = Vec::new();
        let apart = [
            multi(5200.0, PhaseStatus::Done, &mut rows),
            multi(5400.0, PhaseStatus::Done, &mut rows),
        ];
        assert!(needless(&third(Some(1.0)), &apart, &rows).is_none());

        // A failed run does not count: one finished run is not agreement.
        let mut rows = Vec::new();
        let one = [
            multi(5200.0, PhaseStatus::Done, &mut rows),
            multi(5200.0, PhaseStatus::Failed, &mut rows),
        ];
        assert!(needless(&third(Some(1.0)), &one, &rows).is_none());
    }
}
