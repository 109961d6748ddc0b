//! The kernel's build configuration (/proc/config.gz or /boot/config-<release>): where it was
//! found and the few options that matter for benchmarking.

use serde::{Deserialize, Serialize};

/// What the configuration says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// "/proc/config.gz", "/boot/config-6.1.0-27-arm64"; `None`: no configuration readable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Why a configuration file that exists could not be used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// CONFIG_HZ (timer ticks per second).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hz: Option<u32>,
    /// Preemption model: "none", "voluntary", "full", "rt", "lazy", plus "dynamic" when it can
    /// be changed at boot (`preempt=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preempt: Option<String>,
    /// CONFIG_LOCALVERSION (the builder's suffix).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub localversion: Option<String>,
    /// CONFIG_CPU_FREQ_STAT: without it cpufreq time_in_state is missing, and throttling
    /// statistics with it (sbc-bench silently reports "no throttling" then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_freq_stat: Option<bool>,
}

/// Reads the options from the text of a .config.
pub fn parse(text: &str) -> Config {
    let mut c = Config::default();
    let mut yes = std::collections::HashSet::new();
    let mut seen_cpufreq = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("# CONFIG_")
            .and_then(|r| r.strip_suffix(" is not set"))
        {
            if name == "CPU_FREQ_STAT" {
                c.cpu_freq_stat = Some(false);
            }
            if name == "CPU_FREQ" {
                seen_cpufreq = true;
            }
            continue;
        }
        let Some((k, v)) = line.strip_prefix("CONFIG_").and_then(|l| l.split_once('=')) else {
            continue;
        };
        match k {
            "HZ" => c.hz = v.parse().ok(),
            "LOCALVERSION" => {
                let v = v.trim_matches('"');
                if !v.is_empty() {
                    c.localversion = Some(v.to_string());
                }
            }
            "CPU_FREQ_STAT" => c.cpu_freq_stat = Some(v == "y"),
            "CPU_FREQ" => seen_cpufreq = true,
            _ => {}
        }
        if v == "y" {
            yes.insert(k.to_string());
        }
    }
    // A config with cpufreq but no CPU_FREQ_STAT line at all: the option is absent.
    if c.cpu_freq_stat.is_none() && seen_cpufreq {
        c.cpu_freq_stat = Some(false);
    }
    let model = if yes.contains("PREEMPT_RT") {
        Some("rt")
    } else if yes.contains("PREEMPT_LAZY") {
        Some("lazy")
    } else if yes.contains("PREEMPT") {
        Some("full")
    } else if yes.contains("PREEMPT_VOLUNTARY") {
        Some("voluntary")
    } else if yes.contains("PREEMPT_NONE") {
        Some("none")
    } else {
        None
    };
    c.preempt = model.map(|m| {
        if yes.contains("PREEMPT_DYNAMIC") {
            format!("{m} (dynamic)")
        } else {
            m.to_string()
        }
    });
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debian_like_config() {
        let c = parse(
            "#\n# Automatically generated file\nCONFIG_LOCALVERSION=\"\"\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n\
             CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_CPU_FREQ=y\nCONFIG_CPU_FREQ_STAT=y\n",
        );
        assert_eq!(c.hz, Some(250));
        assert_eq!(c.preempt.as_deref(), Some("voluntary (dynamic)"));
        assert_eq!(c.localversion, None);
        assert_eq!(c.cpu_freq_stat, Some(true));
    }

    #[test]
    fn rt_and_missing_stat() {
        let c = parse(
            "CONFIG_LOCALVERSION=\"-rockchip-rk3588\"\nCONFIG_HZ=300\nCONFIG_PREEMPT_RT=y\nCONFIG_CPU_FREQ=y\n# CONFIG_CPU_FREQ_STAT is not set\n",
        );
        assert_eq!(c.preempt.as_deref(), Some("rt"));
        assert_eq!(c.cpu_freq_stat, Some(false));
        assert_eq!(c.localversion.as_deref(), Some("-rockchip-rk3588"));
    }

    #[test]
    fn garbage_gives_nothing() {
        let c = parse("\0\u{fffd}CONFIG_HZ=abc\nCONFIG_=\n=\nCONFIG_HZ\n");
        assert_eq!(c, Config::default());
    }
}
