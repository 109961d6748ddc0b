//! The stable kind strings of findings, and for each its severity and rule in one line.
//!
//! Kinds are part of the result document's contract (the database, the HTML report and
//! scripts filter on them): they are added, never renamed. [`ALL`] is the table the crate
//! documentation and `docs/findings.md` describe (a test keeps them in step).

/// time_in_state below the top OPP grew during the run (imported: the log's "Throttling
/// statistics"). Message: sbc-bench's `ATTENTION: Throttling occured. Check the log for details.`
pub const THROTTLING: &str = "throttling";
/// Throttling could not be judged from cpufreq statistics (MaxKHz caps, no time_in_state).
pub const THROTTLING_UNCHECKED: &str = "throttling-unchecked";
/// A policy's scaling_max_freq was below cpuinfo_max_freq without `MaxKHz` being asked for.
pub const POLICY_CAPPED: &str = "policy-capped";
/// The measured clock differs from the cpufreq OPP it was capped to.
pub const FAKE_CLOCK: &str = "fake-clock";
/// The clock measured right after the hardest phase is lower than the one measured cold.
pub const CLOCK_DROP: &str = "clock-drop";
/// Swap use grew during the run.
pub const SWAPPING: &str = "swapping";
/// zswap is enabled while zram is used as swap.
pub const ZSWAP_ON_ZRAM: &str = "zswap-on-zram";
/// The OOM killer ran during the run.
pub const OOM_KILL: &str = "oom-kill";
/// Single-threaded phases used more CPU than one core: something else was running.
pub const BACKGROUND_ACTIVITY: &str = "background-activity";
/// %sys during the benchmark phases above sbc-bench's limits.
pub const SYSTEM_ACTIVITY: &str = "system-activity";
/// CPU cores were shut down (kmsg `CPUn: shutdown`) or went offline during the run.
pub const CORES_KILLED: &str = "cores-killed";
/// Raspberry Pi under-voltage (get_throttled bits 0/16) or kmsg `Undervoltage detected!`.
pub const UNDERVOLTAGE: &str = "undervoltage";
/// Raspberry Pi ARM frequency capping (get_throttled bits 1/17).
pub const FREQUENCY_CAPPING: &str = "frequency-capping";
/// Raspberry Pi firmware throttling (get_throttled bits 2/18).
pub const FIRMWARE_THROTTLING: &str = "firmware-throttling";
/// Raspberry Pi soft temperature limit (get_throttled bits 3/19).
pub const SOFT_TEMP_LIMIT: &str = "soft-temp-limit";
/// Raspberry Pi firmware clock (`measure_clock arm`) below the kernel's cpufreq clock.
pub const SILENT_THROTTLING: &str = "silent-throttling";
/// powercap (RAPL) limits present; low or changed limits.
pub const POWERCAP: &str = "powercap";
/// x86 thermal_throttle counters grew during the run.
pub const THERMAL_THROTTLE: &str = "thermal-throttle";
/// A cpufreq governor other than performance during the run.
pub const GOVERNOR: &str = "governor";
/// A devfreq governor (DRAM controller, GPU) other than performance during a tuned run.
pub const DEVFREQ_GOVERNOR: &str = "devfreq-governor";
/// A file boardbench changed did not read back its original value after restoring.
pub const SETTINGS_NOT_RESTORED: &str = "settings-not-restored";
/// Raspberry Pi 3B+/3A+/CM3+ without `temp_soft_limit` in config.txt.
pub const RPI_TEMP_SOFT_LIMIT: &str = "rpi-temp-soft-limit";
/// Raspberry Pi with BCM2711 C0 or later without `arm_boost=1` in config.txt.
pub const RPI_ARM_BOOST: &str = "rpi-arm-boost";
/// Every multi-threaded 7-Zip run scored lower than the one before.
pub const SEVENZIP_FALLING: &str = "7zip-falling";
/// The 7-Zip that ran is not the one sbc-bench's database compares (≤ 16.02).
pub const SEVENZIP_NOT_COMPARABLE: &str = "7zip-not-comparable";
/// A headline figure far outside its SoC's range in sbc-bench's published results.
pub const OUTLIER: &str = "outlier";
/// The machine is a virtual machine guest (or a container).
pub const VM_GUEST: &str = "vm-guest";
/// The idle gate gave up: the run started on a busy machine.
pub const BUSY_AT_START: &str = "busy-at-start";
/// A signal ended the run: some phases were cut short or never ran.
pub const INTERRUPTED: &str = "interrupted";
/// The run was stopped (Ctrl-Z) while a phase ran: that phase's figures include the pause.
pub const STOPPED: &str = "stopped";
/// A graph sweep point whose clock fell below its cap while its workload ran.
pub const GRAPH_POINT_THROTTLED: &str = "graph-point-throttled";
/// The temperature source reads values no working SoC has.
pub const TEMPERATURE_IMPLAUSIBLE: &str = "temperature-implausible";

/// One row of the kinds table: kind, the severities it can have, and its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindDoc {
    pub kind: &'static str,
    pub severities: &'static str,
    pub rule: &'static str,
}

/// Every kind, grouped by topic.
pub const ALL: &[KindDoc] = &[
    KindDoc {
        kind: BUSY_AT_START,
        severities: "invalid",
        rule: "idle_gate.passed is false",
    },
    KindDoc {
        kind: INTERRUPTED,
        severities: "invalid",
        rule: "a phase's reason says it was interrupted by a signal",
    },
    KindDoc {
        kind: STOPPED,
        severities: "invalid",
        rule: "a phase's reason says it was stopped by job control (Ctrl-Z)",
    },
    KindDoc {
        kind: TEMPERATURE_IMPLAUSIBLE,
        severities: "warning",
        rule: "a monitor temperature below 20 °C or above 150 °C",
    },
    KindDoc {
        kind: VM_GUEST,
        severities: "warning (info in a container)",
        rule: "identity.virtualization is set",
    },
    KindDoc {
        kind: THROTTLING,
        severities: "invalid",
        rule: "time below the policy's top OPP grew by more than 1 s (clock-check walk allowance subtracted)",
    },
    KindDoc {
        kind: THROTTLING_UNCHECKED,
        severities: "info",
        rule: "MaxKHz set, a graph sweep, or no time_in_state",
    },
    KindDoc {
        kind: POLICY_CAPPED,
        severities: "warning",
        rule: "scaling_max_freq < cpuinfo_max_freq without MaxKHz",
    },
    KindDoc {
        kind: FAKE_CLOCK,
        severities: "warning (top OPP slower), info (otherwise)",
        rule: "measured clock off the OPP by more than ±3 %",
    },
    KindDoc {
        kind: GRAPH_POINT_THROTTLED,
        severities: "warning",
        rule: "graph point: monitor clock more than 2 % below the OPP it was capped to",
    },
    KindDoc {
        kind: CLOCK_DROP,
        severities: "invalid (warning in a VM)",
        rule: "hot clock more than 3 % below the cold one, same CPU",
    },
    KindDoc {
        kind: SWAPPING,
        severities: "invalid",
        rule: "sum of swap used grew",
    },
    KindDoc {
        kind: ZSWAP_ON_ZRAM,
        severities: "warning (swapping), info",
        rule: "zswap enabled and a zram swap area",
    },
    KindDoc {
        kind: OOM_KILL,
        severities: "invalid",
        rule: "vmstat oom_kill grew, or kmsg oom-killer / Out of memory",
    },
    KindDoc {
        kind: BACKGROUND_ACTIVITY,
        severities: "invalid",
        rule: "single-threaded phases: %cpu above 100/cores beyond sbc-bench's table",
    },
    KindDoc {
        kind: SYSTEM_ACTIVITY,
        severities: "warning",
        rule: "%sys average ≥ 1 % or peak > 15 %",
    },
    KindDoc {
        kind: CORES_KILLED,
        severities: "invalid",
        rule: "kmsg CPUn: shutdown, or online CPUs shrank",
    },
    KindDoc {
        kind: UNDERVOLTAGE,
        severities: "invalid (warning: only before the run)",
        rule: "get_throttled bit 0, new bit 16, kmsg Undervoltage detected!",
    },
    KindDoc {
        kind: FREQUENCY_CAPPING,
        severities: "invalid (warning: only before the run)",
        rule: "get_throttled bit 1 or new bit 17",
    },
    KindDoc {
        kind: FIRMWARE_THROTTLING,
        severities: "invalid (warning: only before the run)",
        rule: "get_throttled bit 2 or new bit 18",
    },
    KindDoc {
        kind: SOFT_TEMP_LIMIT,
        severities: "invalid (warning: only before the run)",
        rule: "get_throttled bit 3 or new bit 19",
    },
    KindDoc {
        kind: SILENT_THROTTLING,
        severities: "invalid",
        rule: "RPi monitor: firmware ARM clock more than 3 % below the kernel's",
    },
    KindDoc {
        kind: THERMAL_THROTTLE,
        severities: "invalid",
        rule: "x86 core/package throttle counters grew",
    },
    KindDoc {
        kind: POWERCAP,
        severities: "warning (limit below max or changed), info",
        rule: "powercap zones with power limits",
    },
    KindDoc {
        kind: GOVERNOR,
        severities: "warning (tuned run), info (--no-tune)",
        rule: "a policy's governor is not performance",
    },
    KindDoc {
        kind: DEVFREQ_GOVERNOR,
        severities: "info",
        rule: "a devfreq governor is not performance in a tuned run",
    },
    KindDoc {
        kind: SETTINGS_NOT_RESTORED,
        severities: "warning",
        rule: "a changed file reads back a value other than its original",
    },
    KindDoc {
        kind: RPI_TEMP_SOFT_LIMIT,
        severities: "warning",
        rule: "RPi 3B+/3A+/CM3+ without temp_soft_limit in config.txt",
    },
    KindDoc {
        kind: RPI_ARM_BOOST,
        severities: "info",
        rule: "BCM2711 C0+ (Pi 4 Rev ≥ 1.4, Pi 400, CM4) without arm_boost=1",
    },
    KindDoc {
        kind: SEVENZIP_FALLING,
        severities: "invalid (warning in a VM)",
        rule: "≥ 3 multi-threaded 7-Zip runs, each more than 2 % below the previous",
    },
    KindDoc {
        kind: SEVENZIP_NOT_COMPARABLE,
        severities: "info",
        rule: "a 7-Zip run with comparable_with_sbc_bench = false",
    },
    KindDoc {
        kind: OUTLIER,
        severities: "warning",
        rule: "a headline figure more than 15 % outside the range of at least 3 comparable published rows of its SoC, with the document's possible causes",
    },
];
