//! Every external program boardbench can use, in one place: the names searched (as the adapters
//! search them), the modes and phases that need it, whether its figures compare with sbc-bench's,
//! and the package that installs it with each package manager (apt, dnf, pacman, apk, opkg).
//!
//! Also: which package manager a distribution uses, from os-release's `ID` and `ID_LIKE`, and the
//! one command that installs a set of missing tools there. Nothing here installs anything or
//! reads a file: the caller reads os-release (through its root) and decides whether to run the
//! command. `boardbench doctor` and the first lines of `run` are built on this (docs/tools.md).

use std::time::Duration;

use document::run::kind;
use serde::Serialize;

use crate::tool::{Invocation, Runner, SearchPath, Tool};
use crate::{cpuminer, openssl, sevenzip, stockfish};

/// The package managers whose install command boardbench knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PackageManager {
    /// Debian, Ubuntu, Raspberry Pi OS (Raspbian), Armbian, DietPi …
    Apt,
    /// Fedora, RHEL and its rebuilds.
    Dnf,
    /// Arch Linux, Manjaro, EndeavourOS.
    Pacman,
    /// Alpine Linux, postmarketOS.
    Apk,
    /// OpenWrt.
    Opkg,
}

impl PackageManager {
    pub fn name(self) -> &'static str {
        match self {
            PackageManager::Apt => "apt",
            PackageManager::Dnf => "dnf",
            PackageManager::Pacman => "pacman",
            PackageManager::Apk => "apk",
            PackageManager::Opkg => "opkg",
        }
    }

    /// The non-interactive install command for `packages` (program first).
    pub fn install_command(self, packages: &[&str]) -> Vec<String> {
        let head: &[&str] = match self {
            PackageManager::Apt => &["apt-get", "install", "-y"],
            PackageManager::Dnf => &["dnf", "install", "-y"],
            PackageManager::Pacman => &["pacman", "-S", "--needed", "--noconfirm"],
            PackageManager::Apk => &["apk", "add"],
            PackageManager::Opkg => &["opkg", "install"],
        };
        head.iter().chain(packages).map(|s| s.to_string()).collect()
    }

    /// The package manager of a distribution, from os-release's `ID` and then each word of
    /// `ID_LIKE` (Armbian and DietPi say `ID=debian`, Raspberry Pi OS `ID=raspbian`
    /// `ID_LIKE=debian`, Manjaro `ID_LIKE=arch`, OpenWrt `ID_LIKE="lede openwrt"`).
    pub fn for_distro(id: &str, id_like: &str) -> Option<PackageManager> {
        std::iter::once(id)
            .chain(id_like.split_whitespace())
            .find_map(|w| match w.to_ascii_lowercase().as_str() {
                "debian" | "ubuntu" | "raspbian" | "armbian" | "dietpi" | "linuxmint" | "pop" => {
                    Some(PackageManager::Apt)
                }
                "fedora" | "rhel" | "centos" | "rocky" | "almalinux" => Some(PackageManager::Dnf),
                "arch" | "archarm" | "manjaro-arm" | "manjaro" | "endeavouros" => {
                    Some(PackageManager::Pacman)
                }
                "alpine" | "postmarketos" => Some(PackageManager::Apk),
                "openwrt" | "lede" => Some(PackageManager::Opkg),
                _ => None,
            })
    }
}

/// The package of a tool for each package manager; `None`: not packaged there (as far as we
/// know), the user builds it (sbc-bench builds cpuminer-multi itself, for one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packages {
    pub apt: Option<&'static str>,
    pub dnf: Option<&'static str>,
    pub pacman: Option<&'static str>,
    pub apk: Option<&'static str>,
    pub opkg: Option<&'static str>,
}

impl Packages {
    const fn all(name: &'static str) -> Packages {
        Packages {
            apt: Some(name),
            dnf: Some(name),
            pacman: Some(name),
            apk: Some(name),
            opkg: Some(name),
        }
    }

    const NONE: Packages = Packages {
        apt: None,
        dnf: None,
        pacman: None,
        apk: None,
        opkg: None,
    };

    pub fn get(&self, pm: PackageManager) -> Option<&'static str> {
        match pm {
            PackageManager::Apt => self.apt,
            PackageManager::Dnf => self.dnf,
            PackageManager::Pacman => self.pacman,
            PackageManager::Apk => self.apk,
            PackageManager::Opkg => self.opkg,
        }
    }
}

/// Who needs a tool: a mode as typed (`run`, `run -s`, `guide --sections storage`) and its
/// phase kinds (`document::run::kind`, the one spelling) or guide sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Use {
    pub mode: &'static str,
    pub phases: &'static [&'static str],
}

/// One external program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The family name the adapters and skips use ("7-Zip", "OpenSSL" …).
    pub family: &'static str,
    /// Program names searched, in order of preference.
    pub candidates: &'static [&'static str],
    pub uses: &'static [Use],
    pub packages: Packages,
    /// Arguments that make the program print its version and end (`None`: it has no such
    /// option; running it would start the benchmark).
    pub version_args: Option<&'static [&'static str]>,
}

impl Entry {
    /// Needed by `mode` (exactly as in [`Use::mode`]).
    pub fn used_by(&self, mode: &str) -> Option<&Use> {
        self.uses.iter().find(|u| u.mode == mode)
    }
}

/// Every external program, the run's first (in the run's order), then the guide's.
pub const CATALOGUE: &[Entry] = &[
    Entry {
        family: openssl::FAMILY,
        candidates: openssl::CANDIDATES,
        uses: &[
            Use {
                mode: "run",
                phases: &[kind::OPENSSL],
            },
            Use {
                mode: "run --extensive",
                phases: &[kind::OPENSSL_PARALLEL],
            },
            Use {
                mode: "review --baseline",
                phases: &[kind::OPENSSL],
            },
            Use {
                mode: "guide",
                phases: &["openssl", "kcrypto"],
            },
        ],
        packages: Packages {
            opkg: Some("openssl-util"),
            ..Packages::all("openssl")
        },
        version_args: Some(&["version"]),
    },
    Entry {
        family: sevenzip::FAMILY,
        candidates: sevenzip::CANDIDATES,
        uses: &[
            Use {
                mode: "run",
                phases: &[kind::SEVENZIP_SINGLE, kind::SEVENZIP_MULTI],
            },
            Use {
                mode: "run --extensive",
                phases: &[kind::SEVENZIP_CLUSTER],
            },
            Use {
                mode: "review --baseline",
                phases: &[kind::SEVENZIP_MULTI],
            },
        ],
        // p7zip where the distribution still ships it (Debian's p7zip-full has 7z and 7za): it
        // is the 16.02 that sbc-bench's figures compare with. Arch replaced p7zip with 7-Zip's
        // own `7zip` package in December 2024, Alpine after 3.17; Fedora still names it p7zip
        // (no p7zip-full). `7zip` gives 7z/7zz of 7-Zip 2x, whose figures `doctor` marks as
        // not comparable with sbc-bench's.
        packages: Packages {
            apt: Some("p7zip-full"),
            pacman: Some("7zip"),
            apk: Some("7zip"),
            ..Packages::all("p7zip")
        },
        version_args: Some(&[]),
    },
    Entry {
        family: stockfish::FAMILY,
        candidates: stockfish::CANDIDATES,
        uses: &[Use {
            mode: "run -s",
            phases: &[kind::STOCKFISH],
        }],
        packages: Packages {
            apt: Some("stockfish"),
            dnf: Some("stockfish"),
            pacman: Some("stockfish"),
            apk: None,
            opkg: None,
        },
        version_args: None, // read by the adapter (it starts the engine and sends `quit`)
    },
    Entry {
        family: cpuminer::FAMILY,
        candidates: cpuminer::CANDIDATES,
        uses: &[Use {
            mode: "run -c",
            phases: &[kind::CPUMINER],
        }],
        // Not in Debian, Fedora, Arch, Alpine or OpenWrt: sbc-bench builds cpuminer-multi.
        packages: Packages::NONE,
        version_args: Some(&["--version"]),
    },
    Entry {
        family: "fio",
        candidates: &["fio"],
        uses: &[Use {
            mode: "guide",
            phases: &["storage"],
        }],
        packages: Packages::all("fio"),
        version_args: Some(&["--version"]),
    },
    Entry {
        family: "iperf3",
        candidates: &["iperf3"],
        uses: &[Use {
            mode: "guide",
            phases: &["network", "ipsec"],
        }],
        packages: Packages::all("iperf3"),
        version_args: Some(&["--version"]),
    },
    Entry {
        family: "ip (iproute2)",
        candidates: &["ip"],
        uses: &[Use {
            mode: "guide",
            phases: &["ipsec"],
        }],
        packages: Packages {
            dnf: Some("iproute"),
            opkg: Some("ip-full"),
            ..Packages::all("iproute2")
        },
        version_args: Some(&["-V"]),
    },
    Entry {
        family: "ALSA utilities",
        candidates: &["aplay", "arecord"],
        uses: &[Use {
            mode: "guide",
            phases: &["audio"],
        }],
        packages: Packages::all("alsa-utils"),
        version_args: Some(&["--version"]),
    },
    Entry {
        family: "CoreMark",
        candidates: &["coremark", "coremark.exe"],
        uses: &[Use {
            mode: "guide",
            phases: &["coremark"],
        }],
        packages: Packages::NONE,
        version_args: None,
    },
    Entry {
        family: "CoreMark-PRO",
        candidates: &["coremark-pro", "coremark_pro", "coremarkpro"],
        uses: &[Use {
            mode: "guide",
            phases: &["coremark-pro"],
        }],
        packages: Packages::NONE,
        version_args: None,
    },
    Entry {
        family: "MultiBench",
        // guide::multibench::CANDIDATES (or the program in BOARDBENCH_MULTIBENCH).
        candidates: &["multibench", "multibench-run"],
        uses: &[Use {
            mode: "guide",
            phases: &["multibench"],
        }],
        packages: Packages::NONE,
        version_args: None,
    },
    Entry {
        family: "NBench",
        candidates: &["nbench", "nbench-byte"],
        uses: &[Use {
            mode: "guide",
            phases: &["nbench"],
        }],
        packages: Packages::NONE,
        version_args: None,
    },
];

/// The catalogue entry of a family ("7-Zip").
pub fn entry(family: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.family == family)
}

/// The distribution, from os-release's fields (empty when absent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Distro {
    pub id: String,
    pub id_like: String,
    pub version_id: String,
    pub pretty_name: String,
}

impl Distro {
    /// From os-release's `KEY=value` pairs (already unquoted).
    pub fn from_pairs(kv: &[(String, String)]) -> Distro {
        let get = |k: &str| {
            kv.iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        Distro {
            id: get("ID"),
            id_like: get("ID_LIKE"),
            version_id: get("VERSION_ID"),
            pretty_name: get("PRETTY_NAME"),
        }
    }

    pub fn package_manager(&self) -> Option<PackageManager> {
        PackageManager::for_distro(&self.id, &self.id_like)
    }

    /// "Debian GNU/Linux 12 (bookworm)", else the ID and version, else "unknown distribution".
    pub fn label(&self) -> String {
        if !self.pretty_name.is_empty() {
            self.pretty_name.clone()
        } else if !self.id.is_empty() {
            format!("{} {}", self.id, self.version_id)
                .trim()
                .to_string()
        } else {
            "unknown distribution".to_string()
        }
    }
}

/// How to install a set of missing tools on a distribution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstallPlan {
    pub package_manager: Option<PackageManager>,
    /// The one command (program and arguments) that installs every packaged tool; `None`
    /// when nothing is packaged or the package manager is not known.
    pub command: Option<Vec<String>>,
    /// Families the command installs.
    pub installs: Vec<String>,
    /// Families with no package here (or every family, on an unknown distribution).
    pub unpackaged: Vec<String>,
}

impl InstallPlan {
    pub fn new(distro: &Distro, missing: &[&Entry]) -> InstallPlan {
        let pm = distro.package_manager();
        let mut packages: Vec<&str> = Vec::new();
        let mut installs = Vec::new();
        let mut unpackaged = Vec::new();
        for e in missing {
            match pm.and_then(|pm| e.packages.get(pm)) {
                Some(p) => {
                    if !packages.contains(&p) {
                        packages.push(p);
                    }
                    installs.push(e.family.to_string());
                }
                None => unpackaged.push(e.family.to_string()),
            }
        }
        InstallPlan {
            package_manager: pm,
            command: pm
                .filter(|_| !packages.is_empty())
                .map(|pm| pm.install_command(&packages)),
            installs,
            unpackaged,
        }
    }

    /// The command as one would type it.
    pub fn command_line(&self) -> Option<String> {
        self.command.as_ref().map(|c| c.join(" "))
    }
}

/// What was found of one catalogue entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub family: &'static str,
    pub candidates: &'static [&'static str],
    /// The program that would be used (`None`: missing).
    pub path: Option<String>,
    /// Its version as the adapter reads it (or the first line of its version output).
    pub version: Option<String>,
    /// Whether its figures compare with sbc-bench's, and why.
    pub sbc_bench: String,
    pub uses: &'static [Use],
}

impl Status {
    pub fn missing(&self) -> bool {
        self.path.is_none()
    }
}

/// Presence only (no program is started): the entries none of whose names is on `sp`.
pub fn missing<'a>(
    sp: &SearchPath,
    entries: impl IntoIterator<Item = &'a Entry>,
) -> Vec<&'a Entry> {
    entries
        .into_iter()
        .filter(|e| sp.find_all(e.candidates).is_empty())
        .collect()
}

/// Looks every catalogue entry up and reads its version with the adapter's own check (7-Zip,
/// OpenSSL, Stockfish, cpuminer) or the program's version option.
pub fn survey(sp: &SearchPath, runner: &dyn Runner) -> Vec<Status> {
    CATALOGUE.iter().map(|e| status(e, sp, runner)).collect()
}

fn status(e: &'static Entry, sp: &SearchPath, runner: &dyn Runner) -> Status {
    let mut s = Status {
        family: e.family,
        candidates: e.candidates,
        path: None,
        version: None,
        sbc_bench: String::new(),
        uses: e.uses,
    };
    let Some(first) = sp.find_all(e.candidates).into_iter().next() else {
        s.sbc_bench = "-".into();
        return s;
    };
    let show = |t: &Tool| t.path.display().to_string();
    match e.family {
        sevenzip::FAMILY => match sevenzip::find(sp, runner) {
            Ok(f) => {
                s.path = Some(show(&f.tool));
                s.sbc_bench = if f.version.comparable_with_sbc_bench {
                    format!("yes ({} ≤ 16.02)", f.version.version)
                } else {
                    format!("no: {} is newer than 16.02", f.version.version)
                };
                s.version = Some(f.version.label());
            }
            Err(skip) => unusable(&mut s, &first, &skip.reason),
        },
        openssl::FAMILY => match openssl::find(sp, runner) {
            Ok(f) => {
                s.path = Some(show(&f.tool));
                s.sbc_bench = if f.version.prints_16k_column() {
                    "yes, with the same OpenSSL version and build".into()
                } else {
                    "no: 1.0.x has no 16 KiB column".into()
                };
                s.version = Some(f.version.label());
            }
            Err(skip) => unusable(&mut s, &first, &skip.reason),
        },
        stockfish::FAMILY => match stockfish::find(sp, runner) {
            Ok(f) => {
                s.path = Some(show(&f.tool));
                s.sbc_bench = if f.version.sbc_bench_version {
                    format!("yes, with sbc-bench's net {}", stockfish::SBC_BENCH_NET)
                } else {
                    format!(
                        "no: sbc-bench runs Stockfish {}",
                        stockfish::SBC_BENCH_VERSION
                    )
                };
                s.version = Some(f.version.label());
            }
            Err(skip) => unusable(&mut s, &first, &skip.reason),
        },
        cpuminer::FAMILY => match cpuminer::find(sp, runner) {
            Ok(f) => {
                s.path = Some(show(&f.tool));
                s.sbc_bench = "yes, if built as sbc-bench builds it".into();
                s.version = Some(f.version.label());
            }
            Err(skip) => unusable(&mut s, &first, &skip.reason),
        },
        _ => {
            s.path = Some(show(&first));
            s.sbc_bench = "- (no sbc-bench figure)".into();
            s.version = e
                .version_args
                .and_then(|args| first_line(runner, &first, args));
        }
    }
    s
}

/// Found but its version could not be read: shown as found, with the reason.
fn unusable(s: &mut Status, tool: &Tool, reason: &str) {
    s.path = Some(tool.path.display().to_string());
    s.version = Some(format!("unusable: {reason}"));
    s.sbc_bench = "no (unusable)".into();
}

fn first_line(runner: &dyn Runner, tool: &Tool, args: &[&str]) -> Option<String> {
    let inv = Invocation::new(tool, args).time_limit(Duration::from_secs(10));
    let out = runner.run(&inv).ok()?;
    out.combined()
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_map_to_their_package_manager() {
        let pm = PackageManager::for_distro;
        assert_eq!(pm("debian", ""), Some(PackageManager::Apt));
        assert_eq!(pm("ubuntu", "debian"), Some(PackageManager::Apt));
        assert_eq!(pm("raspbian", "debian"), Some(PackageManager::Apt));
        assert_eq!(pm("fedora", ""), Some(PackageManager::Dnf));
        assert_eq!(pm("rocky", "rhel centos fedora"), Some(PackageManager::Dnf));
        assert_eq!(pm("arch", ""), Some(PackageManager::Pacman));
        assert_eq!(
            pm("manjaro-arm", "manjaro arch"),
            Some(PackageManager::Pacman)
        );
        assert_eq!(pm("alpine", ""), Some(PackageManager::Apk));
        assert_eq!(pm("openwrt", "lede openwrt"), Some(PackageManager::Opkg));
        assert_eq!(pm("someos", "unheard"), None);
        assert_eq!(pm("", ""), None);
    }

    #[test]
    fn one_command_for_the_packaged_tools_and_the_rest_named() {
        let debian = Distro {
            id: "debian".into(),
            ..Distro::default()
        };
        let want = |f: &[&str]| -> Vec<&Entry> { f.iter().map(|f| entry(f).unwrap()).collect() };
        let p = InstallPlan::new(&debian, &want(&["7-Zip", "OpenSSL", "cpuminer"]));
        assert_eq!(
            p.command_line().as_deref(),
            Some("apt-get install -y p7zip-full openssl")
        );
        assert_eq!(p.unpackaged, vec!["cpuminer"]);

        let owrt = Distro {
            id: "openwrt".into(),
            ..Distro::default()
        };
        let p = InstallPlan::new(&owrt, &want(&["OpenSSL", "Stockfish"]));
        assert_eq!(
            p.command_line().as_deref(),
            Some("opkg install openssl-util")
        );
        assert_eq!(p.unpackaged, vec!["Stockfish"]);

        let p = InstallPlan::new(&Distro::default(), &want(&["7-Zip"]));
        assert_eq!(p.command, None);
        assert_eq!(p.unpackaged, vec!["7-Zip"]);

        let p = InstallPlan::new(&debian, &want(&["cpuminer"]));
        assert_eq!(p.command, None, "nothing packaged: no command");
    }

    #[test]
    fn every_family_is_named_once_and_the_adapters_candidates_are_used() {
        let mut names: Vec<&str> = CATALOGUE.iter().map(|e| e.family).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOGUE.len());
        assert_eq!(entry("7-Zip").unwrap().candidates, sevenzip::CANDIDATES);
        assert!(entry("Stockfish").unwrap().used_by("run -s").is_some());
    }
}
