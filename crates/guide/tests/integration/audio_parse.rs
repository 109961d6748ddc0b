//! The audio section's parsers on recorded /proc/asound/pcm and arecord messages, and its
//! skip paths (this machine, like CI, has no sound device).

use crate::common;

use guide::audio::{expected_bps, inaccurate_rate, parse_pcm};

#[test]
fn pcm_devices_with_their_directions() {
    let p = parse_pcm(&common::data("asound-pcm.txt"));
    assert_eq!(p.len(), 4);
    assert_eq!(
        (p[0].card, p[0].device, p[0].playback, p[0].capture),
        (0, 0, true, true)
    );
    assert_eq!(p[0].name, "ALC887-VD Analog");
    assert_eq!(p[0].hw(), "hw:0,0");
    assert!(p[1].playback && !p[1].capture);
    assert!(!p[2].playback && p[2].capture);
    assert_eq!(p[3].hw(), "hw:1,3");
}

#[test]
fn rate_warnings_and_the_expected_rate() {
    let w = "Warning: rate is not accurate (requested = 8000Hz, got = 48000Hz)\n         please, try the plug plugin \n";
    assert_eq!(inaccurate_rate(w), Some(48000));
    assert_eq!(
        inaccurate_rate("Recording raw data 'x' : Signed 16 bit"),
        None
    );
    assert_eq!(expected_bps(48000), 1_536_000.0);
}

#[test]
fn skipped_without_a_device_or_on_a_recorded_tree() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::new(dir.path()), dir.path());
    let run = guide::registry::find("audio").unwrap().run;
    assert!(run(&ctx).skipped.unwrap().contains("no ALSA PCM device"));
    std::fs::create_dir_all(dir.path().join("proc/asound")).unwrap();
    std::fs::write(
        dir.path().join("proc/asound/pcm"),
        common::data("asound-pcm.txt"),
    )
    .unwrap();
    assert!(run(&ctx).skipped.unwrap().contains("recorded tree"));
}
