//! What the device tree and a DRAM controller's devfreq state of a board: the nominal CPU clock
//! per cluster (operating-points-v2, operating-points, clock-frequency), the DRAM type (JEDEC
//! memory nodes) and the DDR data rate of a `dmc` devfreq. The trees are written by the tests;
//! the OPPs and devfreq frequencies come from the shared sbc-bench fixtures (an OPP dump of a
//! ROCK 5B, the devfreq lines of an ODROID-M2 and a Radxa Cubie A7S log).

use std::path::Path;

use probe::Root;

fn w(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel.trim_start_matches('/'));
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn link(root: &Path, rel: &str, target: &str) {
    let p = root.join(rel.trim_start_matches('/'));
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, p).unwrap();
}

fn dt_string(s: &str) -> Vec<u8> {
    let mut b = s.as_bytes().to_vec();
    b.push(0);
    b
}

/// The tables of an sbc-bench OPP dump: (table name, [(MHz, has a speed-bin mask)]).
fn opp_dump(text: &str) -> Vec<(String, Vec<(u64, bool)>)> {
    let mut out: Vec<(String, Vec<(u64, bool)>)> = Vec::new();
    for l in text.lines() {
        let t = l.trim();
        if let Some(name) = t.strip_suffix(':') {
            out.push((name.to_string(), Vec::new()));
        } else if let (Some(mhz), Some(last)) = (
            t.split_whitespace().next().and_then(|m| m.parse().ok()),
            out.last_mut(),
        ) {
            last.1.push((mhz, t.contains('(')));
        }
    }
    out
}

/// A device-tree OPP table node with `phandle` `ph`.
fn opp_table(root: &Path, node: &str, ph: u32, opps: &[(u64, bool)]) {
    w(
        root,
        &format!("{node}/compatible"),
        &dt_string("operating-points-v2"),
    );
    w(root, &format!("{node}/phandle"), &ph.to_be_bytes());
    for (mhz, binned) in opps {
        let hz = mhz * 1_000_000;
        w(root, &format!("{node}/opp-{hz}/opp-hz"), &hz.to_be_bytes());
        if *binned {
            w(
                root,
                &format!("{node}/opp-{hz}/opp-supported-hw"),
                &[0, 0, 0, 0xff, 0, 0, 0xff, 0xff],
            );
        }
    }
}

fn rock5b_opps() -> Vec<(String, Vec<(u64, bool)>)> {
    let p = testsupport::shared_fixtures().join("opp-tables/rk3588-5.10.66-Radxa_ROCK_5B.txt");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    opp_dump(&text)
}

/// An RK3588 without cpufreq (a kernel whose cpufreq driver did not load): the clusters'
/// clocks come from their OPP tables, per cluster, the highest of the table (every OPP here
/// carries a speed-bin mask, which the source says).
#[test]
fn a_big_little_board_without_cpufreq_gets_its_clocks_from_the_opp_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::copy(testsupport::probe_root("rk3588").join("proc/cpuinfo"), {
        std::fs::create_dir_all(root.join("proc")).unwrap();
        root.join("proc/cpuinfo")
    })
    .unwrap();
    let tables = rock5b_opps();
    let table = |n: &str| &tables.iter().find(|t| t.0 == n).unwrap().1;
    let dt = "/proc/device-tree";
    w(
        root,
        &format!("{dt}/compatible"),
        &dt_string("radxa,rock-5b"),
    );
    for (i, name) in [
        "cluster0-opp-table",
        "cluster1-opp-table",
        "cluster2-opp-table",
    ]
    .iter()
    .enumerate()
    {
        opp_table(root, &format!("{dt}/{name}"), 0x10 + i as u32, table(name));
    }
    // cpu@0 … cpu@700 (MPIDR order), written in a scrambled order: the reg decides.
    for cpu in [5u32, 0, 7, 2, 1, 6, 3, 4] {
        let node = format!("{dt}/cpus/cpu@{}", cpu * 0x100);
        w(root, &format!("{node}/device_type"), &dt_string("cpu"));
        w(root, &format!("{node}/reg"), &(cpu * 0x100).to_be_bytes());
        let table = match cpu {
            0..=3 => 0x10u32,
            4 | 5 => 0x11,
            _ => 0x12,
        };
        w(
            root,
            &format!("{node}/operating-points-v2"),
            &table.to_be_bytes(),
        );
    }
    let m = probe::snapshot::take(&Root::new(root));
    let top = |n: &str| table(n).iter().map(|o| o.0).max().unwrap() * 1000;
    let little = m.clusters.iter().find(|c| c.cpus.contains(&0)).unwrap();
    let big = m.clusters.iter().find(|c| c.cpus.contains(&4)).unwrap();
    assert_eq!(little.max_khz, None, "no cpufreq in this tree");
    assert_eq!(little.dt_max_khz, Some(top("cluster0-opp-table")), "{m:#?}");
    assert_eq!(big.dt_max_khz, Some(top("cluster1-opp-table")));
    assert!(top("cluster0-opp-table") < top("cluster1-opp-table"));
    assert_eq!(
        little.dt_clock_from.as_deref(),
        Some("operating-points-v2 /cluster0-opp-table, the highest of its speed bins")
    );
}

/// The CPU's node by its of_node link; OPPs the kernel would not use are left out
/// (status "disabled", turbo-mode); tables under /cpus; the older operating-points; a bare
/// clock-frequency of one or two cells; no device tree at all.
#[test]
fn the_cpu_node_and_the_opps_the_kernel_would_use() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dt = "/sys/firmware/devicetree/base";
    // cpu0's of_node names cpu@1 (not the reg order): the link decides.
    link(
        root,
        "/sys/devices/system/cpu/cpu0/of_node",
        "../../../../firmware/devicetree/base/cpus/cpu@1",
    );
    for (n, ph) in [(0u32, 1u32), (1, 2)] {
        w(root, &format!("{dt}/cpus/cpu@{n}/reg"), &n.to_be_bytes());
        w(
            root,
            &format!("{dt}/cpus/cpu@{n}/operating-points-v2"),
            &ph.to_be_bytes(),
        );
    }
    opp_table(root, &format!("{dt}/cpus/opp-table-0"), 1, &[(1000, false)]);
    opp_table(
        root,
        &format!("{dt}/cpus/opp-table-1"),
        2,
        &[(1200, false), (1400, false)],
    );
    let t1 = format!("{dt}/cpus/opp-table-1");
    opp_table(root, &t1, 2, &[(1600, false), (2000, false)]);
    w(
        root,
        &format!("{t1}/opp-1600000000/status"),
        &dt_string("disabled"),
    );
    w(root, &format!("{t1}/opp-2000000000/turbo-mode"), b"");
    let r = Root::new(root);
    let c = probe::devicetree::cpu_clock(&r, 0).unwrap();
    assert_eq!(c.khz, 1_400_000, "{c:?}");
    assert_eq!(c.from, "operating-points-v2 /cpus/opp-table-1");
    // cpu1 has no of_node link: the second cpu node by reg, cpu@1, also table 2.
    assert_eq!(probe::devicetree::cpu_clock(&r, 1).unwrap().khz, 1_400_000);

    // operating-points (kHz, µV pairs) and clock-frequency (32 and 64 bits).
    let old = tempfile::tempdir().unwrap();
    let o = old.path();
    let dt = "/proc/device-tree";
    w(o, &format!("{dt}/cpus/cpu@0/reg"), &0u32.to_be_bytes());
    let pairs: Vec<u8> = [300_000u32, 950_000, 1_008_000, 1_200_000]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    w(o, &format!("{dt}/cpus/cpu@0/operating-points"), &pairs);
    w(o, &format!("{dt}/cpus/cpu@1/reg"), &1u32.to_be_bytes());
    w(
        o,
        &format!("{dt}/cpus/cpu@1/clock-frequency"),
        &1_500_000_000u32.to_be_bytes(),
    );
    w(o, &format!("{dt}/cpus/cpu@2/reg"), &2u32.to_be_bytes());
    w(
        o,
        &format!("{dt}/cpus/cpu@2/clock-frequency"),
        &5_000_000_000u64.to_be_bytes(),
    );
    let r = Root::new(o);
    let c = probe::devicetree::cpu_clock(&r, 0).unwrap();
    assert_eq!(
        (c.khz, c.from.as_str()),
        (1_008_000, "operating-points of /cpus/cpu@0")
    );
    let c = probe::devicetree::cpu_clock(&r, 1).unwrap();
    assert_eq!(
        (c.khz, c.from.as_str()),
        (1_500_000, "clock-frequency of /cpus/cpu@1")
    );
    assert_eq!(probe::devicetree::cpu_clock(&r, 2).unwrap().khz, 5_000_000);
    assert_eq!(probe::devicetree::cpu_clock(&r, 3), None);
    let none = tempfile::tempdir().unwrap();
    assert_eq!(
        probe::devicetree::cpu_clock(&Root::new(none.path()), 0),
        None
    );
}

/// The devfreq line of an sbc-bench log (`* dmc: performance / 2736 MHz (governors / 528 1320
/// 1968 2736)`) as a sysfs tree: the device's name and its available frequencies in Hz.
fn devfreq_from_log(log: &str, name: &str) -> Vec<u64> {
    let p = testsupport::sbc_bench_logs().join(log);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("* {name}: ")))
        .unwrap_or_else(|| panic!("{log}: no devfreq line for {name}"));
    let list = line
        .rsplit('/')
        .next()
        .unwrap()
        .trim()
        .trim_end_matches(')');
    list.split_whitespace()
        .map(|m| m.parse::<u64>().unwrap() * 1_000_000)
        .collect()
}

fn write_devfreq(root: &Path, name: &str, hz: &[u64], compatible: Option<&str>) {
    let d = format!("/sys/class/devfreq/{name}");
    let list: Vec<String> = hz.iter().map(u64::to_string).collect();
    w(
        root,
        &format!("{d}/available_frequencies"),
        format!("{}\n", list.join(" ")).as_bytes(),
    );
    // A lowered limit: the data rate is the highest frequency the driver offers, not max_freq.
    w(
        root,
        &format!("{d}/max_freq"),
        format!("{}\n", hz[0]).as_bytes(),
    );
    w(
        root,
        &format!("{d}/cur_freq"),
        format!("{}\n", hz[0]).as_bytes(),
    );
    w(root, &format!("{d}/governor"), b"performance\n");
    if let Some(c) = compatible {
        let node = format!("/sys/firmware/devicetree/base/{name}");
        w(root, &format!("{node}/compatible"), &dt_string(c));
        link(
            root,
            &format!("/sys/devices/platform/{name}/of_node"),
            &format!("../../../firmware/devicetree/base/{name}"),
        );
        link(
            root,
            &format!("{d}/device"),
            &format!("../../../devices/platform/{name}"),
        );
    }
}

/// Rockchip's dmc devfreq counts the DRAM clock: the data rate is twice the highest frequency
/// (ODROID-M2's log); Allwinner's vendor dmcfreq the same (Cubie A7S's log); Allwinner's
/// mainline MBUS driver counts transfers already; an unknown memory devfreq claims nothing.
#[test]
fn a_dmc_devfreq_gives_the_ddr_data_rate() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let m2 = devfreq_from_log("8ENy.txt", "dmc");
    let a7s = devfreq_from_log("rca7s.txt", "a020000.dmcfreq");
    write_devfreq(root, "dmc", &m2, Some("rockchip,rk3588-dmc"));
    write_devfreq(root, "a020000.dmcfreq", &a7s, None);
    write_devfreq(
        root,
        "1c62000.dram-controller",
        &[200_000_000, 648_000_000],
        Some("allwinner,sun50i-a64-mbus"),
    );
    write_devfreq(
        root,
        "imx8m-ddrc",
        &[100_000_000, 750_000_000],
        Some("fsl,imx8mm-ddrc"),
    );
    let m = probe::snapshot::take(&Root::new(root));
    let dev = |n: &str| m.devfreq.iter().find(|d| d.name == n).unwrap();
    assert_eq!(dev("dmc").compatible, ["rockchip,rk3588-dmc"]);
    assert_eq!(dev("dmc").available_hz, m2);
    let top = |v: &[u64]| v.iter().max().unwrap() / 1_000_000;
    assert_eq!(dev("dmc").dram_data_rate_mts().unwrap().0, 2 * top(&m2));
    assert_eq!(
        dev("dmc").dram_data_rate_mts().unwrap().1,
        format!("devfreq dmc: 2 × {} MHz DRAM clock", top(&m2))
    );
    assert_eq!(
        dev("a020000.dmcfreq").dram_data_rate_mts().unwrap().0,
        2 * top(&a7s)
    );
    assert_eq!(
        dev("1c62000.dram-controller")
            .dram_data_rate_mts()
            .unwrap()
            .0,
        648
    );
    assert_eq!(dev("imx8m-ddrc").dram_data_rate_mts(), None);
}

/// A JEDEC memory node names the DRAM type (the channel's; its ranks are not counted again);
/// nodes of other kinds and vendors' private properties are not read.
#[test]
fn a_jedec_memory_node_names_the_dram_type() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dt = "/proc/device-tree";
    w(
        root,
        &format!("{dt}/compatible"),
        &dt_string("vendor,board"),
    );
    w(root, "/proc/meminfo", b"MemTotal: 4000000 kB\n");
    let ch = format!("{dt}/memory-controller@3d400000/lpddr4-channel0");
    w(
        root,
        &format!("{ch}/compatible"),
        &dt_string("jedec,lpddr4-channel"),
    );
    w(
        root,
        &format!("{ch}/rank@0/compatible"),
        b"lpddr4-ff,0100\0jedec,lpddr4\0",
    );
    w(
        root,
        &format!("{dt}/dmc/compatible"),
        &dt_string("rockchip,rk3588-dmc"),
    );
    w(
        root,
        &format!("{dt}/serial@0/compatible"),
        &dt_string("jedec,lpddr5"),
    );
    let m = probe::snapshot::take(&Root::new(root));
    let dt_dram: Vec<_> = m
        .memory
        .dram
        .iter()
        .filter(|d| d.source == "devicetree")
        .collect();
    assert_eq!(dt_dram.len(), 1, "{:?}", m.memory.dram);
    assert_eq!(dt_dram[0].mem_type.as_deref(), Some("LPDDR4"));
    assert_eq!(
        dt_dram[0].locator.as_deref(),
        Some("/memory-controller@3d400000/lpddr4-channel0")
    );
}
