//! Logs of machines without cpufreq (VMs, x86 boxes, a cluster whose policy is missing): every
//! "No cpufreq support … Measured" line of the shared corpus becomes a clock-check row without
//! an OPP (a failed measurement, "0 MHz ()", is left out), so the clock cell and the 3 % clock-drop rule work for them as in sbc-bench.

use testsupport::sbc_bench_logs;

#[test]
fn every_no_cpufreq_measurement_is_a_row_without_opp() {
    let mut logs = 0;
    for e in std::fs::read_dir(sbc_bench_logs()).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let lines = text
            .lines()
            .filter(|l| l.starts_with("No cpufreq support") && l.contains("Measured"))
            .filter(|l| !l.ends_with(": 0 MHz ()"))
            .count();
        if lines == 0 {
            continue;
        }
        logs += 1;
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let doc = sbcimport::import_bytes(&bytes, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let imported = doc.imported.expect("imported part");
        let rows: Vec<f64> = imported
            .clock_checks
            .iter()
            .flat_map(|c| &c.rows)
            .filter(|r| r.opp_mhz.is_none())
            .map(|r| r.measured_mhz)
            .collect();
        assert_eq!(rows.len(), lines, "{name}: {:?}", imported.clock_checks);
        assert!(rows.iter().all(|&m| m > 0.0), "{name}: {rows:?}");
    }
    assert!(logs >= 10, "the corpus has such logs: found {logs}");
}
