//! The numbers the rules compare against, with the reason for each.

/// Seconds below the top OPP a policy may gain before it counts as throttled.
/// time_in_state counts in 10 ms ticks, and the moments a cap is switched (before and after
/// the clock checks) leave a few ticks on lower OPPs; sbc-bench's "any difference" turns
/// those into false alarms (its Kojb log: 0.2 s at 408 MHz).
pub const THROTTLING_MIN_S: f64 = 1.0;

/// Time allowed per OPP visited by a clock-check walk inside the before/after window:
/// this factor times the phase's wall time per reading, plus [`CLOCK_WALK_SLACK_S`].
/// The walk caps the policy at each OPP in turn, so time there is expected, not throttling.
pub const CLOCK_WALK_FACTOR: f64 = 2.0;
pub const CLOCK_WALK_SLACK_S: f64 = 1.0;

/// Measured clock vs the OPP it was capped to: beyond ±3 % the OPP table does not tell the
/// truth (the mhz method is repeatable to well under 1 % on an idle core; sbc-bench prints a
/// deviation from 1 % on and colours it from 10 %).
pub const FAKE_CLOCK_PCT: f64 = 3.0;

/// sbc-bench's rule: the top-OPP clock measured after the hottest phase more than 3 % below the
/// one measured cold marks the run "(throttled)".
pub const CLOCK_DROP_PCT: f64 = 3.0;

/// 7-Zip multi-threaded runs: each run more than 2 % below the previous one, three times in a
/// row, is the throttling signal of machines without cpufreq statistics (x86). Run-to-run
/// noise of 7-Zip on an idle machine is about 1 %.
pub const SEVENZIP_FALL_PCT: f64 = 2.0;

/// %sys over the benchmark phases: sbc-bench flags an (integer) average above 0 — i.e. 1 % or
/// more — or a peak above 15 %.
pub const SYS_AVG_PCT: f64 = 1.0;
pub const SYS_PEAK_PCT: f64 = 15.0;

/// A single-threaded phase's sample counts for the %cpu check only when the benchmark was
/// visibly running: at least this share of one core (sbc-bench: samples ≥ 100/cores).
pub const CPU_SAMPLE_MIN_SHARE: f64 = 0.9;

/// A working SoC or CPU is warmer than its surroundings: sbc-bench warns below 20 °C that "the
/// sysfs thermal readout is ominously low" (a wrong zone, a missing offset or scale).
pub const TEMP_PLAUSIBLE_MIN_C: f64 = 20.0;

/// Silicon shuts down at about 105–125 °C junction temperature; a reading above 150 °C is a
/// sensor or scaling fault (e.g. millidegrees read as degrees), not heat.
pub const TEMP_PLAUSIBLE_MAX_C: f64 = 150.0;

/// A graph sweep point: the monitor's clock sample of its cluster this far below the OPP it was
/// capped to means the kernel lowered the clock (thermal or power limits). cpufreq reports the
/// OPP it set, so any lower OPP is at least one step — usually 5–15 % — down; 2 % only keeps
/// rounding out.
pub const GRAPH_POINT_CLOCK_PCT: f64 = 2.0;

/// `outlier`: a figure more than this many percent below the lowest (or above the highest)
/// comparable published row of its SoC.
pub const OUTLIER_PCT: f64 = 15.0;
/// `outlier`: the fewest comparable published rows of the SoC (same architecture class) the
/// rule judges by.
pub const OUTLIER_MIN_SOC_ROWS: usize = 3;
/// `outlier`: a measured clock this many percent below (above) the median clock of the SoC's
/// rows is named as a cause.
pub const OUTLIER_CLOCK_PCT: f64 = 5.0;
