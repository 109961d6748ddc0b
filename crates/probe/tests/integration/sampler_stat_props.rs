//! The /proc/stat and /proc/loadavg parsers never panic, and the shares stay within 0–100 %.

use probe::stat::{CpuTimes, parse_cpu_times, parse_load1};
use proptest::prelude::*;

proptest! {
    #[test]
    fn stat_parser_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = parse_cpu_times(&bytes);
        let _ = parse_load1(&bytes);
    }

    #[test]
    fn stat_parser_never_panics_on_cpu_like_lines(
        fields in proptest::collection::vec("[0-9]{0,25}|-?[0-9]{1,5}|[a-z]{1,3}", 0..14),
        sep in "[ \t]{1,3}",
    ) {
        let line = format!("cpu {}\ncpu0 1 2 3 4\n", fields.join(&sep));
        let _ = parse_cpu_times(line.as_bytes());
    }

    #[test]
    fn shares_stay_between_0_and_100(
        a in proptest::array::uniform10(any::<u32>()),
        b in proptest::array::uniform10(any::<u32>()),
    ) {
        let t = |f: [u32; 10]| CpuTimes {
            user: f[0].into(), nice: f[1].into(), system: f[2].into(), idle: f[3].into(),
            iowait: f[4].into(), irq: f[5].into(), softirq: f[6].into(), steal: f[7].into(),
            guest: f[8].into(), guest_nice: f[9].into(),
        };
        if let Some(s) = t(b).states_since(&t(a)) {
            for v in [s.cpu, s.sys, s.usr, s.nice, s.io, s.irq, s.steal] {
                prop_assert!((0.0..=100.0 + 1e-9).contains(&v), "{s:?}");
            }
        }
    }
}
