//! Whatever numbers a document carries (NaN, infinities, zero, huge, out of order, empty), the
//! report renders, its SVG stays well-formed and no non-finite number reaches it.

use document::measure::memlat::ChainRow;
use document::samples::{CpuStates, MonitorSample};
use proptest::prelude::*;
use testsupport::demo;

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-1.0),
        Just(1e300),
        -1e6..1e6f64,
    ]
}

fn sample() -> impl Strategy<Value = MonitorSample> {
    (
        any::<u64>(),
        prop::collection::vec(prop::option::of(any::<u32>()), 0..4),
        prop::option::of(any_f64()),
        prop::option::of(any_f64()),
        any_f64(),
    )
        .prop_map(|(unix_ms, clocks, temp, cpu, interval)| MonitorSample {
            unix_ms,
            interval_s: interval,
            clocks_mhz: clocks,
            load1: None,
            cpu: cpu.map(|c| CpuStates {
                cpu: c,
                ..Default::default()
            }),
            temp_c: temp,
            rpi: None,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_numbers_render(
        samples in prop::collection::vec(sample(), 0..30),
        starts in prop::collection::vec(any::<u64>(), 8),
        opp in prop::collection::vec((any::<u64>(), any_f64()), 0..10),
        ladder in prop::collection::vec((any::<u64>(), any_f64()), 0..20),
        headline in any_f64(),
    ) {
        let mut doc = demo::run_document();
        let run = doc.run.as_mut().unwrap();
        for (i, p) in run.phases.iter_mut().enumerate() {
            p.started_unix_ms = starts[i];
            p.finished_unix_ms = starts[(i + 1) % 8];
        }
        run.phases[3].samples = samples;
        run.phases[0].clock = opp
            .into_iter()
            .map(|(khz, mhz)| {
                let mut r = demo::reading(4, 4, 1000, mhz);
                r.opp_khz = Some(khz);
                r
            })
            .collect();
        if let Some(chain) = run.phases[2].memlat.as_mut().and_then(|m| m.chain.as_mut()) {
            chain.rows = ladder
                .into_iter()
                .map(|(size, ns)| ChainRow {
                    size_bytes: size,
                    ns_per_step: vec![ns, ns * 2.0],
                    descheduled_retries: 0,
                    disturbed: false,
                })
                .collect();
        }
        doc.measurements[6].value = headline;
        let other = demo::scaled_run("other", 1.0);
        let html = report::html(&doc, &[("other".into(), other)]);
        let mut rest = html.as_str();
        while let Some(a) = rest.find("<svg") {
            let b = rest[a..].find("</svg>").expect("svg closes") + a;
            let svg = &rest[a..b];
            prop_assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", svg);
            rest = &rest[b..];
        }
    }
}
