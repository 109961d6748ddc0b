//! The power readers on fixture trees (tests/roots, see its README) and their parsers.

use std::path::{Path, PathBuf};
use std::time::Duration;

use power::command::{CommandSource, parse_first_number};
use power::rpi5::{parse_pmic_adc, total_watts};
use power::{Kind, PowerSource, Reading, detect, hwmon, rapl};
use probe::Root;

fn roots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/roots")
}

fn root(name: &str) -> Root {
    Root::new(roots().join(name))
}

fn watts(r: Result<Reading, String>) -> f64 {
    match r {
        Ok(Reading::Watts(w)) => w,
        other => panic!("expected watts, got {other:?}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn ina226_power_input_in_microwatts_wins_over_volts_times_amps() {
    let mut v = detect(&root("ina226-board"));
    assert_eq!(v.len(), 1, "only the INA226 has power channels");
    let s = &mut v[0];
    assert_eq!(s.kind(), Kind::Hwmon);
    assert_eq!(s.describe(), "hwmon1 ina226: power1_input");
    assert!(close(watts(s.read()), 4.15744));
}

#[test]
fn ina3221_volts_times_amps_counts_only_the_input_channel() {
    let r = root("jetson-ina3221");
    let found = hwmon::discover(&r);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].channels,
        hwmon::Channels::VoltsAmps(vec![("in1_input".into(), "curr1_input".into())])
    );
    let mut s = found.into_iter().next().unwrap();
    assert!(close(watts(s.read()), 5.080 * 0.900));
}

#[test]
fn unlabelled_rails_are_summed_and_shunt_voltages_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("sys/class/hwmon/hwmon3");
    std::fs::create_dir_all(&d).unwrap();
    for (f, v) in [
        ("name", "ina3221"),
        ("in1_input", "5000"),
        ("curr1_input", "200"),
        ("in2_input", "3300"),
        ("curr2_input", "-100"),
        ("in4_input", "7"),
    ] {
        std::fs::write(d.join(f), format!("{v}\n")).unwrap();
    }
    let mut v = hwmon::discover(&Root::new(tmp.path()));
    assert_eq!(v.len(), 1);
    // A reversed shunt (negative current) still draws 0.33 W.
    assert!(close(watts(v[0].read()), 1.0 + 0.33));
    assert_eq!(
        v[0].describe(),
        "hwmon3 ina3221: in1_input × curr1_input + in2_input × curr2_input"
    );
}

#[test]
fn gpu_hwmon_power_is_not_a_board_source_and_rapl_counts_packages_then_psys() {
    let found = detect(&root("x86-rapl"));
    let names: Vec<String> = found.iter().map(|s| s.describe()).collect();
    assert_eq!(names, ["RAPL package-0", "RAPL psys"]);
    assert!(found.iter().all(|s| s.kind() == Kind::Rapl));
}

#[test]
fn rapl_energy_differences_cross_the_counter_wrap() {
    let tmp = tempfile::tempdir().unwrap();
    testsupport::copy_tree(&roots().join("x86-rapl"), tmp.path());
    let r = Root::new(tmp.path());
    let mut s = rapl::discover(&r).into_iter().next().unwrap();
    let energy = tmp.path().join("sys/class/powercap/intel-rapl:0/energy_uj");
    let joules = |s: &mut rapl::RaplSource| match s.read() {
        Ok(Reading::Joules(j)) => j,
        other => panic!("{other:?}"),
    };
    let j0 = joules(&mut s); // 262140000000 µJ, 3.32885 J below the range
    std::fs::write(&energy, "262143000000\n").unwrap();
    let j1 = joules(&mut s);
    assert!(close(j1 - j0, 3.0), "{}", j1 - j0);
    // Wrapped: 328850 µJ up to the range, then 1671150 µJ from zero.
    std::fs::write(&energy, "1671150\n").unwrap();
    let j2 = joules(&mut s);
    assert!(close(j2 - j1, 2.0), "{}", j2 - j1);
    // Through a window: 10 J over 2 s is 5 W.
    let mut w = power::window::Window::default();
    w.add(0.0, Ok(Reading::Joules(j2)));
    std::fs::write(&energy, "11671150\n").unwrap();
    w.add(2.0, s.read());
    assert!(close(w.average_watts().unwrap(), 5.0));
}

#[test]
fn rpi5_pmic_sums_amps_times_volts_of_its_rails() {
    let mut v = detect(&root("rpi5"));
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].kind(), Kind::RpiPmic);
    assert!((watts(v[0].read()) - 2.896_272_567_786).abs() < 1e-9);
    let text =
        std::fs::read_to_string(roots().join("rpi5/.fixture/vcgencmd/pmic_read_adc.txt")).unwrap();
    let rails = parse_pmic_adc(&text);
    // Twelve rails with both readings; EXT5V_V and BATT_V have no current channel.
    assert_eq!(rails.len(), 12);
    let core = rails.iter().find(|r| r.name == "VDD_CORE").unwrap();
    assert!(close(core.watts(), 2.1056 * 0.860024));
    assert!(rails.iter().all(|r| r.name != "EXT5V"));
    assert!(total_watts(&rails) > 2.0);
}

#[test]
fn a_pmic_is_only_read_on_a_raspberry_pi() {
    // The rk3588 fixture has no `raspberrypi,` compatible: no vcgencmd is consulted.
    let rk = Root::new(testsupport::probe_root("rk3588"));
    assert!(power::rpi5::discover(&rk).is_none());
    // A VM has no power source at all.
    let vm = Root::new(testsupport::probe_root("vm"));
    assert!(detect(&vm).is_empty());
}

/// Runs a power command the way the sampler does. Under qemu-user (BOARDBENCH_EMULATED) a
/// fork of the multi-threaded test binary now and then hangs inside qemu before exec (see
/// scripts/test): there, and only there, a read that ran into the time limit is tried once
/// more. Natively a timeout is always the answer.
fn read_command(command: &str) -> Result<Reading, String> {
    let tries = if testsupport::forks_may_hang() { 3 } else { 1 };
    let mut last = Err(String::new());
    for _ in 0..tries {
        last = CommandSource::new(command).read();
        match &last {
            Err(e) if e.contains("longer than") => continue,
            _ => break,
        }
    }
    last
}

#[test]
fn power_command_prints_watts() {
    assert!(close(watts(read_command("echo 3.2")), 3.2));
    assert!(close(watts(read_command("echo 'power: 4.5 W'")), 4.5));
    assert!(close(
        watts(read_command(r#"echo '{"apower":7.25}'"#)),
        7.25
    ));
    for bad in ["echo no number", "echo -3", "echo 3; exit 1"] {
        let e = read_command(bad).unwrap_err();
        assert!(!e.contains("longer than"), "{bad}: {e}");
    }
    let mut slow = CommandSource::new("sleep 5; echo 1");
    slow.timeout = Duration::from_millis(200);
    let e = slow.read().unwrap_err();
    assert!(e.contains("longer than"), "{e}");
}

/// A command over its time limit is ended with what it started (the one child runner's own
/// process group): the shell's `sleep` does not live on holding the pipe.
#[test]
fn a_command_over_its_time_limit_ends_with_its_children() {
    if testsupport::host_only() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let mut slow = CommandSource::new(&format!(
        "sleep 30 & echo $! > '{}'; wait",
        pid_file.display()
    ));
    slow.timeout = Duration::from_millis(300);
    let t0 = std::time::Instant::now();
    let e = slow.read().unwrap_err();
    assert!(e.contains("longer than"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let stat = format!("/proc/{}/stat", pid.trim());
    // Gone, or a zombie until whoever adopted it reaps it.
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    let alive = || {
        std::fs::read_to_string(&stat).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| !r.trim_start().starts_with('Z'))
        })
    };
    while alive() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(), "the command's sleep {} still runs", pid.trim());
}

#[test]
fn first_numbers() {
    assert_eq!(parse_first_number("3.2\n"), Some(3.2));
    assert_eq!(parse_first_number("P=-1.5e1 W"), Some(-15.0));
    assert_eq!(parse_first_number("ina226-3"), Some(226.0));
    assert_eq!(parse_first_number(".5"), Some(0.5));
    assert_eq!(parse_first_number("1.2.3"), Some(1.2));
    assert_eq!(parse_first_number("watts"), None);
    assert_eq!(parse_first_number(""), None);
}

mod never_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pmic_parser(s in "\\PC*") {
            let _ = total_watts(&parse_pmic_adc(&s));
        }

        #[test]
        fn pmic_parser_on_line_shaped_input(s in "([ A-Z0-9_]{0,12}(_A|_V)? ?(current|volt)?\\(?[0-9]{0,2}\\)?=[-+.e0-9]{0,10}[AV]?\n){0,8}") {
            for r in parse_pmic_adc(&s) {
                prop_assert!(r.amps.is_finite() && r.volts.is_finite());
            }
        }

        #[test]
        fn number_parser(s in "\\PC*") {
            if let Some(v) = parse_first_number(&s) {
                prop_assert!(v.is_finite());
            }
        }

        #[test]
        fn number_parser_finds_printed_numbers(x in 0.0f64..1e6, pre in "[a-z :=]{0,6}") {
            let s = format!("{pre}{x} W");
            prop_assert_eq!(parse_first_number(&s), Some(x));
        }
    }
}
