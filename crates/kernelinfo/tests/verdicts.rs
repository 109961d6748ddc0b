//! Classification and verdicts for real-world release strings, judged on a fixed date.

use chrono::NaiveDate;
use kernelinfo::{Input, Kind, Level, Report, Status, assess};

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
}

fn judge(release: &str, version: Option<&str>, compat: &[&str]) -> Report {
    let input = Input {
        release: Some(release.into()),
        version: version.map(str::to_string),
        dt_compatible: compat.iter().map(|s| s.to_string()).collect(),
        ..Input::default()
    };
    assess(&input, today())
}

fn kind(r: &Report) -> Kind {
    r.origin.as_ref().unwrap().kind
}

fn who(r: &Report) -> Option<&str> {
    r.origin.as_ref().unwrap().maintainer.as_deref()
}

fn status(r: &Report) -> Status {
    r.upstream.as_ref().unwrap().status
}

#[test]
fn debian_stable_takes_the_point_release_from_uname_v() {
    let r = judge(
        "6.1.0-27-arm64",
        Some("#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)"),
        &[],
    );
    assert_eq!(kind(&r), Kind::Distro);
    assert_eq!(who(&r), Some("Debian"));
    assert_eq!(r.origin.as_ref().unwrap().upstream_point, Some(115));
    let u = r.upstream.as_ref().unwrap();
    assert_eq!(u.status, Status::Supported);
    assert_eq!(u.eol.as_deref(), Some("2027-12"));
    assert_eq!(u.behind, Some(147 - 115));
    assert!(u.behind_at_least);
    assert_eq!(r.level, Level::Ok);
    assert!(
        r.verdict.starts_with("Debian kernel based on 6.1.115"),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict.contains("still supported until 2027-12"),
        "{}",
        r.verdict
    );
    assert_eq!(r.build.date.as_deref(), Some("2024-11-01"));
}

#[test]
fn rockchip_bsp_on_rk3588() {
    let r = judge(
        "5.10.160-rockchip-rk3588",
        Some("#1 SMP Wed Sep 27 12:00:00 UTC 2023"),
        &["radxa,rock-5b", "rockchip,rk3588"],
    );
    assert_eq!(kind(&r), Kind::Vendor);
    assert_eq!(who(&r), Some("Rockchip"));
    let ev = &r.origin.as_ref().unwrap().evidence;
    assert!(ev.iter().any(|e| e.contains("rk3588")), "{ev:?}");
    assert!(
        ev.iter().any(|e| e.contains("device tree: RK3588")),
        "{ev:?}"
    );
    assert_eq!(status(&r), Status::Supported);
    assert_eq!(r.level, Level::Warning);
    assert!(
        r.verdict.starts_with(
            "vendor kernel based on 5.10 — security fixes depend on the vendor (Rockchip)"
        ),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict
            .contains("at least 80 point releases behind 5.10.240"),
        "{}",
        r.verdict
    );
}

#[test]
fn raspberry_pi_os_kernel_follows_stable() {
    let r = judge(
        "6.6.51+rpt-rpi-v8",
        Some("#1 SMP PREEMPT Debian 1:6.6.51-1+rpt3 (2024-10-08)"),
        &["raspberrypi,4-model-b", "brcm,bcm2711"],
    );
    assert_eq!(kind(&r), Kind::Downstream);
    assert_eq!(who(&r), Some("Raspberry Pi"));
    let u = r.upstream.as_ref().unwrap();
    assert_eq!(u.eol.as_deref(), Some("2027-12"));
    assert_eq!(u.behind, Some(50));
    assert_eq!(r.level, Level::Warning);
    assert!(
        r.verdict.contains("still supported until 2027-12"),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict
            .contains("6.6.51 is at least 50 point releases behind 6.6.101 (2025-08-01)")
    );
}

#[test]
fn old_raspberry_pi_foundation_kernel() {
    let r = judge(
        "5.10.63-v8+",
        Some("#1459 SMP PREEMPT Wed Oct 6 16:42:49 BST 2021"),
        &["raspberrypi,4-model-b"],
    );
    assert_eq!(kind(&r), Kind::Downstream);
    assert_eq!(status(&r), Status::Supported);
    assert_eq!(r.upstream.as_ref().unwrap().behind, Some(240 - 63));
    assert_eq!(r.build.date.as_deref(), Some("2021-10-06"));
}

#[test]
fn amlogic_bsp_4_9_is_end_of_life() {
    let r = judge(
        "4.9.312-meson64",
        None,
        &["hardkernel,odroid-n2", "amlogic,g12b"],
    );
    assert_eq!(kind(&r), Kind::Vendor);
    assert_eq!(who(&r), Some("Amlogic"));
    assert_eq!(status(&r), Status::EndOfLife);
    assert_eq!(r.level, Level::Critical);
    assert!(
        r.verdict.starts_with(
            "vendor kernel based on 4.9 — security fixes depend on the vendor (Amlogic)"
        )
    );
    assert!(
        r.verdict
            .contains("longterm series 4.9 is end of life since 2023-01-07"),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict.contains("25 point releases behind 4.9.337"),
        "{}",
        r.verdict
    );
    assert!(
        !r.verdict.contains("at least 25"),
        "an ended series' distance is exact"
    );
}

#[test]
fn armbian_mainline_families_are_not_vendor_kernels() {
    for (rel, compat) in [
        ("5.15.5-rockchip64", "rockchip,rk3399"),
        ("5.10.81-meson64", "amlogic,g12b"),
        ("6.6.16-current-sunxi64", "allwinner,sun50i-h616"),
        ("6.12.1-edge-rockchip64", "rockchip,rk3588"),
    ] {
        let r = judge(rel, None, &[compat]);
        assert_eq!(kind(&r), Kind::Mainline, "{rel}");
        assert_eq!(who(&r), Some("Armbian"), "{rel}");
    }
    // 5.15 is still supported: the Armbian build is far behind.
    let r = judge("5.15.5-rockchip64", None, &["rockchip,rk3399"]);
    assert_eq!(r.level, Level::Warning);
    assert!(
        r.verdict
            .contains("5.15.5 is at least 184 point releases behind 5.15.189")
    );
}

#[test]
fn armbian_legacy_and_vendor_branches_are_vendor_kernels() {
    for (rel, vendor) in [
        ("5.10.160-legacy-rk35xx", "Rockchip"),
        ("6.1.43-vendor-rk35xx", "Rockchip"),
        ("4.4.213-rockchip64", "Rockchip"),
        ("4.4.194-rk3399", "Rockchip"),
        ("4.9.170-sun50iw9", "Allwinner"),
        ("5.10.120-tegra", "NVIDIA"),
        ("5.10.168-ti-r71", "Texas Instruments"),
        ("5.15.0-starfive", "StarFive"),
        ("5.10.110-android12-9-00001-gabcdef", "Android"),
    ] {
        let r = judge(rel, None, &[]);
        assert_eq!(kind(&r), Kind::Vendor, "{rel}");
        assert_eq!(who(&r), Some(vendor), "{rel}");
        assert!(
            r.verdict.contains("security fixes depend on the vendor"),
            "{rel}"
        );
    }
}

#[test]
fn device_tree_unmasks_a_plainly_named_bsp() {
    // A BSP built without a local version: only the SoC's late mainline support gives it away.
    let r = judge(
        "5.10.66",
        None,
        &["rockchip,rk3588s-orangepi-5", "rockchip,rk3588s"],
    );
    assert_eq!(kind(&r), Kind::Vendor);
    assert_eq!(who(&r), Some("Rockchip"));
    let r = judge("4.9.118", None, &["allwinner,sun50iw9p1"]);
    assert_eq!(kind(&r), Kind::Vendor);
    assert_eq!(who(&r), Some("Allwinner"));
    // The same SoC on a recent kernel is mainline.
    let r = judge("6.12.1", None, &["rockchip,rk3588s"]);
    assert_eq!(kind(&r), Kind::Mainline);
}

#[test]
fn plain_mainline_release_behind_its_series() {
    let r = judge("6.12.1", None, &[]);
    assert_eq!(kind(&r), Kind::Mainline);
    let u = r.upstream.as_ref().unwrap();
    assert_eq!(u.longterm, Some(true));
    assert_eq!(u.eol.as_deref(), Some("2028-12"));
    assert_eq!(u.behind, Some(40));
    assert_eq!(r.level, Level::Warning);
    assert!(
        r.verdict
            .starts_with("6.12 is a longterm series, still supported until 2028-12")
    );
}

#[test]
fn release_candidates_are_prereleases() {
    let r = judge("6.17.0-rc3", None, &[]);
    assert_eq!(status(&r), Status::Prerelease);
    assert_eq!(r.level, Level::Warning);
    assert!(
        r.verdict
            .starts_with("6.17.0-rc3 is release candidate 3 of 6.17"),
        "{}",
        r.verdict
    );
    assert_eq!(r.upstream.as_ref().unwrap().behind, None);
}

#[test]
fn ubuntu_raspi_kernel_with_and_without_signature() {
    let r = judge(
        "5.15.0-1034-raspi",
        Some("#37-Ubuntu SMP PREEMPT Mon Jul 10 14:36:32 UTC 2023"),
        &["raspberrypi,4-model-b"],
    );
    assert_eq!(kind(&r), Kind::Distro);
    assert_eq!(who(&r), Some("Ubuntu"));
    assert_eq!(
        r.origin.as_ref().unwrap().upstream_point,
        None,
        "5.15.0 is not a point release"
    );
    assert_eq!(r.upstream.as_ref().unwrap().behind, None);
    assert_eq!(r.level, Level::Ok);
    assert!(
        r.verdict
            .starts_with("Ubuntu kernel based on 5.15: security fixes come from Ubuntu")
    );

    let input = Input {
        release: Some("5.15.0-1034-raspi".into()),
        version: Some("#37-Ubuntu SMP PREEMPT Mon Jul 10 14:36:32 UTC 2023".into()),
        version_signature: Some("Ubuntu 5.15.0-1034.37-raspi 5.15.98".into()),
        ..Input::default()
    };
    let r = assess(&input, today());
    assert_eq!(r.origin.as_ref().unwrap().upstream_point, Some(98));
    assert!(
        r.verdict.starts_with("Ubuntu kernel based on 5.15.98"),
        "{}",
        r.verdict
    );
}

#[test]
fn very_old_vendor_era_kernel() {
    let r = judge("3.4.39", None, &[]);
    assert_eq!(status(&r), Status::EndOfLife);
    assert_eq!(r.level, Level::Critical);
    assert!(
        r.verdict
            .contains("longterm series 3.4 is end of life since the end of 2016-10"),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict
            .contains("supported longterm series: 5.10, 5.15, 6.1, 6.6, 6.12, 6.18"),
        "{}",
        r.verdict
    );
}

#[test]
fn non_longterm_series_end_of_life() {
    let r = judge("6.3.13", None, &[]);
    assert_eq!(status(&r), Status::EndOfLife);
    assert!(
        r.verdict
            .starts_with("series 6.3 is end of life since 2023-07-11, last release 6.3.13"),
        "{}",
        r.verdict
    );
    assert!(r.verdict.contains("6.3.13 is that last release"));
    // Fedora's build of an ended series.
    let r = judge(
        "6.10.6-200.fc40.x86_64",
        Some("#1 SMP PREEMPT_DYNAMIC Thu Aug 19 14:09:30 UTC 2024"),
        &[],
    );
    assert_eq!(kind(&r), Kind::Mainline);
    assert_eq!(who(&r), Some("Fedora"));
    assert_eq!(status(&r), Status::EndOfLife);
    assert!(
        r.verdict
            .starts_with("Fedora build of kernel.org 6.10: series 6.10 is end of life"),
        "{}",
        r.verdict
    );
    assert!(
        r.verdict
            .contains("6.10.6 is 8 point releases behind 6.10.14"),
        "{}",
        r.verdict
    );
    // A series missing from the table but older than its newest: not longterm, ended.
    let r = judge("6.17.7", None, &[]);
    assert_eq!(status(&r), Status::EndOfLife);
    assert_eq!(r.upstream.as_ref().unwrap().longterm, Some(false));
    // No end announced: four months after release.
    let r = judge("6.16.3", None, &[]);
    assert_eq!(status(&r), Status::EndOfLife);
    assert!(r.verdict.contains("since about 2025-11"), "{}", r.verdict);
}

#[test]
fn stable_series_within_its_months_and_newer_than_the_table() {
    let early = NaiveDate::from_ymd_opt(2025, 8, 1).unwrap();
    let input = Input {
        release: Some("6.16.0".into()),
        ..Input::default()
    };
    let r = assess(&input, early);
    assert_eq!(r.upstream.as_ref().unwrap().status, Status::Supported);
    assert!(r.verdict.contains("not a longterm series"), "{}", r.verdict);
    let r = judge("7.3.2", None, &[]);
    assert_eq!(status(&r), Status::Unknown);
    assert_eq!(r.level, Level::Unknown);
    assert!(
        r.verdict
            .contains("newer than this tool's series table (as of 2026-11)")
    );
}

#[test]
fn supported_until_becomes_end_of_life_with_the_date() {
    let later = NaiveDate::from_ymd_opt(2027, 1, 1).unwrap();
    let input = Input {
        release: Some("5.10.240".into()),
        ..Input::default()
    };
    assert_eq!(assess(&input, today()).level, Level::Ok);
    let r = assess(&input, later);
    assert_eq!(r.upstream.as_ref().unwrap().status, Status::EndOfLife);
    assert!(
        r.verdict.contains("end of life since the end of 2026-12"),
        "{}",
        r.verdict
    );
}

#[test]
fn enterprise_distributions() {
    let r = judge("5.14.0-427.13.1.el9_4.x86_64", None, &[]);
    assert_eq!(kind(&r), Kind::Distro);
    assert_eq!(r.origin.as_ref().unwrap().upstream_point, None);
    assert_eq!(status(&r), Status::EndOfLife);
    assert_eq!(r.level, Level::Ok, "the distribution's support decides");
    assert!(!r.verdict.contains("supported longterm series"));
    assert!(
        r.verdict
            .contains("fixes depend entirely on Red Hat Enterprise Linux family")
    );
    let r = judge("5.14.21-150500.55.65-default", None, &[]);
    assert_eq!(who(&r), Some("SUSE Linux Enterprise"));
    let r = judge(
        "6.8.0-45-generic",
        Some("#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024"),
        &[],
    );
    assert_eq!(who(&r), Some("Ubuntu"));
    let r = judge("4.19.304-cip107", None, &[]);
    assert_eq!(kind(&r), Kind::Distro);
}

#[test]
fn unrecognised_suffix_is_assumed_mainline() {
    let r = judge("6.18.44-fc-v782", Some("#1 SMP PREEMPT_DYNAMIC @0"), &[]);
    assert_eq!(kind(&r), Kind::Mainline);
    assert_eq!(who(&r), None);
    assert_eq!(status(&r), Status::Supported);
    assert_eq!(
        r.level,
        Level::Ok,
        "6.18's latest point release is unknown to the table"
    );
    assert!(r.build.date_note.is_some());
}

#[test]
fn garbage_never_panics() {
    for rel in [
        "",
        "linux",
        "6.x",
        "\0",
        "99999.1",
        "6.1.99999999999",
        "6.1-rc",
        "6.1.0-rc",
    ] {
        let r = judge(rel, Some("(((( Jan 99"), &["", "raspberrypi,"]);
        assert!(!r.verdict.is_empty(), "{rel:?}");
        let _ = kernelinfo::render(&r);
    }
    let r = assess(&Input::default(), today());
    assert_eq!(r.level, Level::Unknown);
    assert!(r.verdict.contains("could not be read"));
}

#[test]
fn debian_trixie_backports_and_rolling_distributions() {
    // Since Debian 13 the release carries the real point release.
    let r = judge(
        "6.12.48+deb13-arm64",
        Some("#1 SMP PREEMPT_DYNAMIC Debian 6.12.48-1 (2025-09-20)"),
        &[],
    );
    assert_eq!(who(&r), Some("Debian"));
    assert_eq!(r.origin.as_ref().unwrap().upstream_point, Some(48));
    let r = judge(
        "6.12.9+bpo-amd64",
        Some("#1 SMP PREEMPT_DYNAMIC Debian 6.12.9-1~bpo12+1 (2025-01-19)"),
        &[],
    );
    assert_eq!(who(&r), Some("Debian"));
    // Debian's own armel flavour for the Raspberry Pi 1 is Debian's kernel, not Raspberry Pi's.
    let r = judge(
        "6.1.0-27-rpi",
        Some("#1 Debian 6.1.115-1 (2024-11-01)"),
        &["raspberrypi,model-b"],
    );
    assert_eq!(who(&r), Some("Debian"));
    let r = judge("6.10.6-arch1-1", None, &[]);
    assert_eq!(kind(&r), Kind::Mainline);
    assert_eq!(who(&r), Some("Arch Linux"));
    assert_eq!(r.origin.as_ref().unwrap().upstream_point, Some(6));
}
