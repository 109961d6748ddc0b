//! Findings: what a result document says about the trustworthiness of its numbers, each with
//! the evidence it is based on.
//!
//! The whole API is a pure function of a [`ResultDocument`]: [`analyse`] reads the record of a
//! `boardbench run` (`doc.run`, with `doc.machine`) and/or an imported sbc-bench log
//! (`doc.imported`) and returns findings sorted Invalid → Warning → Info, in a fixed order
//! within each severity (topic by topic as below, then the order of the data). Nothing is
//! read from the machine, so an old document can be re-analysed with a newer engine.
//! [`trustworthy`] turns the findings into the exit-code decision (0 valid, 2 invalid).
//!
//! # Kinds, rules and tolerances
//!
//! | kind | severity | rule |
//! |---|---|---|
//! | `busy-at-start` | invalid | the idle gate gave up (`idle_gate.passed == false`) |
//! | `interrupted` | invalid | a signal ended the run: a phase's reason says "interrupted by signal" |
//! | `stopped` | invalid | a phase's reason says it was stopped by job control (Ctrl-Z) |
//! | `graph-point-throttled` | warning | a `graph` point's monitor clock more than [`tolerances::GRAPH_POINT_CLOCK_PCT`] below the OPP it was capped to |
//! | `temperature-implausible` | warning | a monitor temperature below [`tolerances::TEMP_PLAUSIBLE_MIN_C`] or above [`tolerances::TEMP_PLAUSIBLE_MAX_C`]: the sensor, not the SoC |
//! | `vm-guest` | warning; info in a container | `identity.virtualization` is set: the numbers are the host's mood |
//! | `throttling` | invalid | time_in_state below the policy's top OPP grew by more than [`tolerances::THROTTLING_MIN_S`] between the before and after snapshots, after subtracting an allowance for clock-check OPP walks inside the window; imported: the "Throttling statistics" tables, else sbc-bench's own "Results validation" verdict ("Throttling occured") |
//! | `throttling-unchecked` | info | `MaxKHz` set or a `graph` sweep (time below max is expected), or no cpufreq statistics |
//! | `policy-capped` | warning | scaling_max_freq below cpuinfo_max_freq without `MaxKHz` |
//! | `fake-clock` | warning when the top OPP is slower, else info | measured clock off the OPP by more than ±[`tolerances::FAKE_CLOCK_PCT`] % |
//! | `clock-drop` | invalid; warning in a VM | hot clock (`clock-hot`) more than [`tolerances::CLOCK_DROP_PCT`] % below the cold one of the same CPU (sbc-bench's 3 % rule) |
//! | `swapping` | invalid | the sum of swap used grew (zram and disk swap told apart) |
//! | `zswap-on-zram` | warning when swapping happened, else info | zswap enabled with a zram swap area |
//! | `oom-kill` | invalid | vmstat `oom_kill` grew or kmsg `oom-killer` / `Out of memory` |
//! | `background-activity` | invalid | single-threaded phases: %cpu above 100/cores by more than sbc-bench's table ([`activity::cpu_tolerances`]) |
//! | `system-activity` | warning | %sys average ≥ 1 % or a peak above 15 % (first sample of each phase skipped; guide sections of several processes left out: their %sys is their own) |
//! | `cores-killed` | invalid | kmsg `CPUn: shutdown` (any CPU number) or fewer online CPUs after the run |
//! | `undervoltage` | invalid; warning when it happened only before the run | RPi get_throttled bit 0 or a new bit 16; kmsg `Undervoltage detected!` |
//! | `frequency-capping` | same | RPi bit 1 / new bit 17 |
//! | `firmware-throttling` | same | RPi bit 2 / new bit 18 |
//! | `soft-temp-limit` | same | RPi bit 3 / new bit 19 |
//! | `silent-throttling` | invalid | RPi monitor samples: the firmware's ARM clock more than 3 % below the kernel's cpufreq clock |
//! | `thermal-throttle` | invalid | x86 thermal_throttle core or package counters grew |
//! | `powercap` | warning when a limit is below the zone's max or changed, else info | powercap zones with limits |
//! | `governor` | warning in a tuned run, info with `--no-tune` | a cpufreq governor other than performance |
//! | `devfreq-governor` | info | a devfreq governor other than performance in a tuned run |
//! | `settings-not-restored` | warning | a changed file read back a value other than the original |
//! | `rpi-temp-soft-limit` | warning | RPi 3B+/3A+/CM3+ without `temp_soft_limit` in config.txt |
//! | `rpi-arm-boost` | info | BCM2711 C0+ (Pi 4 Rev ≥ 1.4, Pi 400, CM4) without `arm_boost=1` |
//! | `7zip-falling` | invalid; warning in a VM | ≥ 3 multi-threaded 7-Zip runs, each more than [`tolerances::SEVENZIP_FALL_PCT`] % below the previous |
//! | `7zip-not-comparable` | info | `comparable_with_sbc_bench == Some(false)` |
//! | `outlier` | warning | a headline figure more than [`tolerances::OUTLIER_PCT`] % outside the range of its SoC's comparable published rows (at least [`tolerances::OUTLIER_MIN_SOC_ROWS`], built-in corpus), with the document's possible causes |
//!
//!
//! An imported log whose data lacks what a rule needs still says what sbc-bench saw: its
//! "Results validation" bullets (throttling, swapping, background activity, oom-killer, stopped
//! cores, powercap) and the Raspberry Pi `get_throttled` bits it prints become findings of those
//! kinds with the line as evidence (module `verdicts`), where the log lacks the data the rule
//! reads (throttling: also when its statistics stay under the threshold, as a warning).
//!
//! `docs/findings.md` explains every rule at length (sbc-bench's behaviour, what is fixed).
//!
//! Module map: [`kinds`] (stable strings), [`tolerances`], one module per topic —
//! `throttling`, `clocks`, `memory` (swap, zswap, OOM), [`activity`], `cores`, `rpi`, `power`
//! (powercap, x86 counters), `governor`, `sevenzip`, `environment` (VM, idle gate) — each
//! with a function for run documents and, where an sbc-bench log carries the data, one for
//! imported logs. Malformed or partial documents never panic: absent data means no finding.

use document::imported::ImportedLog;
use document::machine::MachineInfo;
use document::run::{RunRecord, StateSnapshot};
use document::{Finding, ResultDocument, Severity};

pub mod activity;
mod clocks;
mod cores;
mod environment;
mod governor;
mod graph;
pub mod kinds;
mod memory;
mod outlier;
mod power;
mod rpi;
mod sevenzip;
mod throttling;
pub mod tolerances;
mod verdicts;

/// Every finding the document supports, Invalid first, then Warning, then Info.
pub fn analyse(doc: &ResultDocument) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(run) = &doc.run {
        let cx = RunCx::new(run, doc.machine.as_ref());
        out.extend(environment::run(&cx));
        out.extend(throttling::run(&cx));
        out.extend(clocks::run(&cx));
        out.extend(memory::run(&cx));
        out.extend(activity::run(&cx));
        out.extend(cores::run(&cx));
        out.extend(rpi::run(&cx));
        out.extend(power::run(&cx));
        out.extend(governor::run(&cx));
        out.extend(sevenzip::run(&cx, doc));
        out.extend(graph::run(&cx));
    } else if let Some(machine) = &doc.machine {
        // A document with a machine snapshot but no run (e.g. `info --json` kept as a
        // document) still says whether it is a VM.
        out.extend(environment::machine(machine));
    }
    if let Some(log) = &doc.imported {
        out.extend(imported(log));
    }
    // Last: it names the findings above as possible causes.
    out.extend(outlier::check(doc, &out));
    sort(&mut out);
    out
}

/// True when no finding says the numbers are not to be trusted (exit code 0 rather than 2).
pub fn trustworthy(findings: &[Finding]) -> bool {
    !findings.iter().any(|f| f.severity == Severity::Invalid)
}

/// Findings from an imported sbc-bench log (only what its sections carry).
fn imported(log: &ImportedLog) -> Vec<Finding> {
    let log = &sane(log);
    let signals = sbcimport::signals::signals(log);
    let mut out = Vec::new();
    out.extend(throttling::imported(log, &signals));
    out.extend(clocks::imported(log));
    out.extend(memory::imported(log, &signals));
    out.extend(activity::imported(log, &signals));
    out.extend(cores::imported(log));
    out.extend(rpi::imported(log));
    out.extend(sevenzip::imported(log));
    // Last: what the log says of itself, for what its data did not show.
    let said = verdicts::imported(log, &signals, &out);
    out.extend(said);
    if out.iter().any(|f| f.kind == kinds::THROTTLING) {
        // The log's own verdict said what its missing statistics could not.
        out.retain(|f| f.kind != kinds::THROTTLING_UNCHECKED);
    }
    out
}

/// The log with impossible monitor percentages (above 100, from a damaged line) removed:
/// they mean nothing, and summing billions of "percent" overflows integer sums.
fn sane(log: &ImportedLog) -> std::borrow::Cow<'_, ImportedLog> {
    let bad = |v: Option<u32>| v.is_some_and(|v| v > 100);
    let damaged = log
        .monitor
        .iter()
        .flat_map(|t| t.rows.iter())
        .any(|r| bad(r.cpu_pct) || bad(r.sys_pct));
    if !damaged {
        return std::borrow::Cow::Borrowed(log);
    }
    let mut clean = log.clone();
    for r in clean.monitor.iter_mut().flat_map(|t| t.rows.iter_mut()) {
        if bad(r.cpu_pct) {
            r.cpu_pct = None;
        }
        if bad(r.sys_pct) {
            r.sys_pct = None;
        }
    }
    std::borrow::Cow::Owned(clean)
}

/// Invalid → Warning → Info; stable, so the evaluation order decides within a severity.
fn sort(findings: &mut [Finding]) {
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
}

/// What every run check needs: the record, the machine, the snapshots, and two facts derived
/// once (is this a VM guest, how many CPUs were online).
pub(crate) struct RunCx<'a> {
    pub run: &'a RunRecord,
    pub machine: Option<&'a MachineInfo>,
    pub before: Option<&'a StateSnapshot>,
    pub after: Option<&'a StateSnapshot>,
    /// A hypervisor (not merely a container) was detected.
    pub vm: bool,
    /// CPUs online at the start of the run (0 when unknown).
    pub online_cpus: usize,
}

impl<'a> RunCx<'a> {
    fn new(run: &'a RunRecord, machine: Option<&'a MachineInfo>) -> Self {
        let vm = machine
            .and_then(|m| m.identity.virtualization.as_ref())
            .is_some_and(|v| v.kind != "container");
        let online_cpus = run
            .before
            .as_ref()
            .map(|b| b.online_cpus.len())
            .filter(|&n| n > 0)
            .or_else(|| machine.map(|m| m.cpus.online.len()).filter(|&n| n > 0))
            .unwrap_or(0);
        RunCx {
            run,
            machine,
            before: run.before.as_ref(),
            after: run.after.as_ref(),
            vm,
            online_cpus,
        }
    }

    /// Kernel message lines of the run's window.
    pub fn kmsg(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.run
            .kmsg
            .iter()
            .flat_map(|k| k.lines.iter())
            .map(|l| l.text.as_str())
    }
}

/// Builds a finding.
pub(crate) fn finding(
    kind: &str,
    severity: Severity,
    message: impl Into<String>,
    evidence: Vec<String>,
) -> Finding {
    // One line for humans, whatever the data held.
    let message: String = message.into().replace(['\n', '\r'], " ");
    Finding {
        kind: kind.to_string(),
        severity,
        message,
        evidence,
    }
}

/// "cpu1, cpu3" for a list of CPU numbers ([`CpuList::each_named`]).
pub(crate) fn cpu_list(cpus: &[u32]) -> String {
    document::cpus::CpuList::new(cpus).each_named()
}

/// At most `n` items of evidence, with a line saying how many were left out.
pub(crate) fn capped(mut lines: Vec<String>, n: usize) -> Vec<String> {
    if lines.len() > n {
        let left = lines.len() - n;
        lines.truncate(n);
        lines.push(format!("… and {left} more"));
    }
    lines
}
