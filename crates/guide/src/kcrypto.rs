//! Kernel crypto: which drivers the kernel has for the common ciphers and hashes (from
//! /proc/crypto: driver, priority, and whether it is a hardware engine, CPU instructions or
//! generic C), and AES-CBC throughput through the kernel's AF_ALG socket interface beside
//! OpenSSL in user space. A board with a crypto engine shows it here: the engine's driver wins
//! on priority, and AF_ALG's figure shows what it delivers (often less than the CPU for small
//! buffers, with far less CPU time).
//!
//! /proc/crypto has no "hardware" flag. The classification is by driver name: known engine
//! drivers (sun8i-ce, rk, omap, caam, safexcel, …) are hardware; CPU-instruction drivers carry
//! their instruction set's suffix (-ce, -neon, aesni, -avx2, -zvkned …); "-generic" and the
//! library/fixed-time drivers are plain C. An asynchronous driver that is neither is counted as
//! hardware (engines are asynchronous, CPU code seldom is). The rule is in [`classify`].

use std::process::Command;
use std::time::{Duration, Instant};

use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::Context;
use crate::exec;
use crate::registry::Outcome;

/// One /proc/crypto entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CryptoAlg {
    pub name: String,
    pub driver: String,
    pub module: String,
    pub priority: i64,
    /// "skcipher", "shash", "aead", "cipher" …
    pub kind: String,
    pub is_async: Option<bool>,
    /// Helpers the kernel uses internally ("internal : yes"), not reachable by name.
    pub internal: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implementation {
    Hardware,
    CpuInstructions,
    Generic,
}

impl Implementation {
    pub fn label(self) -> &'static str {
        match self {
            Implementation::Hardware => "hardware engine",
            Implementation::CpuInstructions => "CPU instructions",
            Implementation::Generic => "generic C",
        }
    }
}

/// Parses /proc/crypto (blocks of `key : value` lines separated by blank lines).
pub fn parse_proc_crypto(text: &str) -> Vec<CryptoAlg> {
    let mut out = Vec::new();
    let mut cur: Option<CryptoAlg> = None;
    for line in text.lines().chain(std::iter::once("")) {
        let Some((k, v)) = line.split_once(':') else {
            if let Some(a) = cur.take()
                && !a.name.is_empty()
            {
                out.push(a);
            }
            continue;
        };
        let a = cur.get_or_insert_with(CryptoAlg::default);
        let v = v.trim();
        match k.trim() {
            "name" => a.name = v.into(),
            "driver" => a.driver = v.into(),
            "module" => a.module = v.into(),
            "priority" => a.priority = v.parse().unwrap_or(0),
            "type" => a.kind = v.into(),
            "async" => a.is_async = Some(v == "yes"),
            "internal" => a.internal = v == "yes",
            _ => {}
        }
    }
    out
}

const ENGINES: [&str; 32] = [
    "sun8i-ce", "sun8i-ss", "sun4i-ss", "-rk", "rk-", "rockchip", "omap", "caam", "safexcel",
    "mv-", "marvell", "tegra", "atmel", "stm32", "sahara", "ccree", "qce", "ccp-", "qat",
    "talitos", "ixp4xx", "img-", "zynqmp", "amlogic", "gxl", "starfive", "jh7110", "hisi", "mtk",
    "artpec", "virtio", "-dcp",
];

/// Words (between `-`, `_`, `(`, `)`, `,`) that name an instruction set in a driver's name.
const CPU_WORDS: [&str; 24] = [
    "ce", "neon", "arm64", "arm", "aesni", "ni", "bs", "asm", "x86", "riscv", "riscv64", "vx",
    "clmul", "clmulni", "pclmul", "pmull", "intel", "s390", "ppc", "p8", "vmx", "vaes", "sparc64",
    "octeon",
];

/// Word prefixes of instruction-set families with numbered members ("avx2", "sse4", "zvkned").
const CPU_PREFIXES: [&str; 4] = ["avx", "sse", "ssse", "zvk"];

fn names_instructions(driver: &str) -> bool {
    driver
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| CPU_WORDS.contains(&w) || CPU_PREFIXES.iter().any(|p| w.starts_with(p)))
}

/// Hardware engine, CPU instructions or generic C, by the driver's name (see the module header).
/// An instruction-set word wins over "generic": the kernel's `generic-gcm-aesni` is the generic
/// GCM mode on AES-NI (seen on Debian's 6.1 kernel).
pub fn classify(a: &CryptoAlg) -> Implementation {
    let d = a.driver.to_lowercase();
    if ENGINES.iter().any(|e| d.contains(e)) {
        return Implementation::Hardware;
    }
    if names_instructions(&d) {
        return Implementation::CpuInstructions;
    }
    if d.contains("generic") || d.ends_with("-lib") || d.contains("fixed-time") {
        return Implementation::Generic;
    }
    if a.is_async == Some(true) {
        return Implementation::Hardware;
    }
    Implementation::Generic
}

/// The algorithms the guide lists, by their kernel names.
pub const LISTED: [&str; 12] = [
    "aes",
    "cbc(aes)",
    "ecb(aes)",
    "ctr(aes)",
    "xts(aes)",
    "gcm(aes)",
    "sha1",
    "sha256",
    "sha512",
    "hmac(sha256)",
    "crc32c",
    "authenc(hmac(sha256),cbc(aes))",
];

/// For each listed algorithm the kernel has, its drivers by priority (highest — the one the
/// kernel picks — first), internal helpers left out.
pub fn drivers_of(algs: &[CryptoAlg]) -> Vec<(String, Vec<CryptoAlg>)> {
    LISTED
        .iter()
        .filter_map(|name| {
            let mut ds: Vec<CryptoAlg> = algs
                .iter()
                .filter(|a| a.name == *name && !a.internal)
                .cloned()
                .collect();
            ds.sort_by_key(|a| std::cmp::Reverse(a.priority));
            ds.dedup_by(|a, b| a.driver == b.driver);
            (!ds.is_empty()).then(|| (name.to_string(), ds))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// AF_ALG

/// An AF_ALG operation socket for a symmetric cipher, closed on drop.
struct AlgSocket {
    tfm: i32,
    op: i32,
}

impl Drop for AlgSocket {
    fn drop(&mut self) {
        // SAFETY: both descriptors are owned by this value and closed once.
        unsafe {
            if self.op >= 0 {
                libc::close(self.op);
            }
            libc::close(self.tfm);
        }
    }
}

fn os_err(what: &str) -> String {
    format!("{what}: {}", std::io::Error::last_os_error())
}

impl AlgSocket {
    fn skcipher(name: &str, key: &[u8]) -> Result<AlgSocket, String> {
        // SAFETY: plain socket(2).
        let tfm =
            unsafe { libc::socket(libc::AF_ALG, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0) };
        if tfm < 0 {
            return Err(os_err("AF_ALG socket"));
        }
        let mut s = AlgSocket { tfm, op: -1 };
        // SAFETY: sockaddr_alg is plain data; zeroed is a valid value.
        let mut sa: libc::sockaddr_alg = unsafe { std::mem::zeroed() };
        sa.salg_family = libc::AF_ALG as u16;
        for (d, c) in sa.salg_type.iter_mut().zip(b"skcipher") {
            *d = *c;
        }
        if name.len() >= sa.salg_name.len() {
            return Err("algorithm name too long".into());
        }
        for (d, c) in sa.salg_name.iter_mut().zip(name.as_bytes()) {
            *d = *c;
        }
        // SAFETY: `sa` is a valid sockaddr_alg of the given size.
        let rc = unsafe {
            libc::bind(
                tfm,
                &sa as *const libc::sockaddr_alg as *const libc::sockaddr,
                std::mem::size_of::<libc::sockaddr_alg>() as u32,
            )
        };
        if rc != 0 {
            return Err(os_err(&format!("AF_ALG bind {name}")));
        }
        // SAFETY: key points to key.len() readable bytes.
        let rc = unsafe {
            libc::setsockopt(
                tfm,
                libc::SOL_ALG,
                libc::ALG_SET_KEY,
                key.as_ptr().cast(),
                key.len() as u32,
            )
        };
        if rc != 0 {
            return Err(os_err("AF_ALG set key"));
        }
        // SAFETY: accept(2) without peer address.
        s.op = unsafe { libc::accept(tfm, std::ptr::null_mut(), std::ptr::null_mut()) };
        if s.op < 0 {
            return Err(os_err("AF_ALG accept"));
        }
        Ok(s)
    }

    /// Encrypts `buf` into `out` (same length) with a 16-byte IV.
    fn encrypt(&self, iv: &[u8; 16], buf: &[u8], out: &mut [u8]) -> Result<(), String> {
        let op_len = std::mem::size_of::<u32>();
        let iv_len = std::mem::size_of::<u32>() + iv.len();
        // SAFETY: CMSG_SPACE only computes sizes.
        let space = unsafe { libc::CMSG_SPACE(op_len as u32) + libc::CMSG_SPACE(iv_len as u32) };
        let mut control = vec![0u64; (space as usize).div_ceil(8)];
        let mut iov = libc::iovec {
            iov_base: buf.as_ptr() as *mut libc::c_void,
            iov_len: buf.len(),
        };
        // SAFETY: msghdr is plain data; zeroed is valid.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        // SAFETY: the control buffer holds both headers (sized by CMSG_SPACE above, 8-aligned);
        // the CMSG_* helpers stay inside it.
        unsafe {
            let c = libc::CMSG_FIRSTHDR(&msg);
            (*c).cmsg_level = libc::SOL_ALG;
            (*c).cmsg_type = libc::ALG_SET_OP;
            (*c).cmsg_len = libc::CMSG_LEN(op_len as u32) as _;
            std::ptr::write_unaligned(libc::CMSG_DATA(c) as *mut u32, libc::ALG_OP_ENCRYPT as u32);
            let c = libc::CMSG_NXTHDR(&msg, c);
            (*c).cmsg_level = libc::SOL_ALG;
            (*c).cmsg_type = libc::ALG_SET_IV;
            (*c).cmsg_len = libc::CMSG_LEN(iv_len as u32) as _;
            let data = libc::CMSG_DATA(c);
            std::ptr::write_unaligned(data as *mut u32, iv.len() as u32);
            std::ptr::copy_nonoverlapping(iv.as_ptr(), data.add(4), iv.len());
        }
        // SAFETY: msg points to live buffers for the duration of the call.
        let sent = unsafe { libc::sendmsg(self.op, &msg, 0) };
        if sent != buf.len() as isize {
            return Err(os_err("AF_ALG sendmsg"));
        }
        let mut got = 0;
        while got < out.len() {
            // SAFETY: reads into the unfilled tail of `out`.
            let n = unsafe { libc::read(self.op, out[got..].as_mut_ptr().cast(), out.len() - got) };
            if n <= 0 {
                return Err(os_err("AF_ALG read"));
            }
            got += n as usize;
        }
        Ok(())
    }
}

/// Encrypts `buf_size`-byte buffers with `alg` ("cbc(aes)") and a `key_len`-byte key through
/// AF_ALG for about `time`; bytes per second. Stops early when `cancel` is set.
pub fn af_alg_throughput(
    alg: &str,
    key_len: usize,
    buf_size: usize,
    time: Duration,
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<f64, String> {
    let key: Vec<u8> = (0..key_len as u8).collect();
    let s = AlgSocket::skcipher(alg, &key)?;
    let buf: Vec<u8> = (0..buf_size).map(|i| (i * 7) as u8).collect();
    let mut out = vec![0u8; buf_size];
    let iv = [0x5a; 16];
    s.encrypt(&iv, &buf, &mut out)?; // warm-up, untimed
    let start = Instant::now();
    let mut bytes = 0u64;
    while start.elapsed() < time && !cancel.load(std::sync::atomic::Ordering::Relaxed) {
        s.encrypt(&iv, &buf, &mut out)?;
        bytes += buf_size as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    (bytes > 0)
        .then(|| bytes as f64 / secs)
        .ok_or_else(|| "no buffer encrypted".into())
}

/// OpenSSL's EVP throughput for `cipher` ("aes-128-cbc") on `bytes`-byte buffers, in bytes/s,
/// from `openssl speed -mr` ("+F:<n>:<name>:<bytes/s>").
pub fn parse_openssl_mr(text: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with("+F:"))
        .and_then(|l| l.rsplit(':').next())
        .and_then(|v| v.trim().parse().ok())
}

fn openssl_throughput(ctx: &Context, cipher: &str, bytes: usize, secs: u64) -> Option<f64> {
    let r = exec::run(
        Command::new("openssl").args([
            "speed",
            "-evp",
            cipher,
            "-bytes",
            &bytes.to_string(),
            "-seconds",
            &secs.to_string(),
            "-mr",
        ]),
        Duration::from_secs(secs + 30),
        &ctx.cancel,
    )
    .ok()?;
    parse_openssl_mr(&r.stdout)
}

/// The buffer size of the throughput rows: large enough that per-call costs do not dominate,
/// the largest size of the seed's OpenSSL table.
pub const BUFFER: usize = 16384;

/// The registered section.
pub fn section(ctx: &Context) -> Outcome {
    let Ok(text) = ctx.root.read("/proc/crypto") else {
        return Outcome::skipped("no /proc/crypto (kernel without CONFIG_CRYPTO_USER_API?)");
    };
    let algs = parse_proc_crypto(&text);
    let mut out = Outcome::default();
    let mut drivers = GuideTable {
        key_headers: Vec::new(),
        title: "Kernel Crypto Drivers".into(),
        key_header: "Algorithm: driver (implementation)".into(),
        columns: vec!["priority".into(), "selected".into()],
        rows: Vec::new(),
    };
    let mut engines = Vec::new();
    for (name, ds) in drivers_of(&algs) {
        for (i, d) in ds.iter().enumerate() {
            let imp = classify(d);
            if imp == Implementation::Hardware {
                engines.push(d.driver.clone());
            }
            drivers.rows.push(GuideRow {
                keys: Vec::new(),
                key: format!("{name}: {} ({})", d.driver, imp.label()),
                cells: vec![
                    Some(GuideValue::one(d.priority as f64)),
                    Some(GuideValue::one(if i == 0 { 1.0 } else { 0.0 })),
                ],
            });
        }
    }
    out.notes.push(
        "selected = 1 for the driver the kernel uses (highest priority); implementation \
         classified by driver name"
            .into(),
    );
    if engines.is_empty() {
        out.notes
            .push("no hardware crypto engine driver found".into());
    } else {
        engines.dedup();
        out.notes.push(format!(
            "hardware crypto engine drivers: {}",
            engines.join(", ")
        ));
    }
    out.tables.push(drivers);

    // Throughput: only on the live system (a fixture tree has no kernel to ask).
    if ctx.root.is_host() && !ctx.cancelled() {
        let time = ctx
            .budget(Duration::from_secs(3))
            .max(Duration::from_millis(300));
        let mut t = GuideTable {
            key_headers: Vec::new(),
            title: "Kernel Crypto AES Throughput".into(),
            key_header: "Algorithm".into(),
            columns: vec![
                "AF_ALG kernel (MB/s)".into(),
                "OpenSSL user space (MB/s)".into(),
            ],
            rows: Vec::new(),
        };
        let have_openssl = exec::which("openssl").is_some();
        for (cipher, key_len) in [("aes-128-cbc", 16), ("aes-256-cbc", 32)] {
            if ctx.cancelled() {
                break;
            }
            let kernel = match af_alg_throughput("cbc(aes)", key_len, BUFFER, time, &ctx.cancel) {
                Ok(b) => Some(b / 1e6),
                Err(e) => {
                    out.notes.push(format!("AF_ALG {cipher}: {e}"));
                    None
                }
            };
            let user = if have_openssl && !ctx.cancelled() {
                openssl_throughput(ctx, cipher, BUFFER, time.as_secs().max(1)).map(|b| b / 1e6)
            } else {
                None
            };
            if kernel.is_some() || user.is_some() {
                t.rows.push(GuideRow {
                    keys: Vec::new(),
                    key: format!("{cipher} ({BUFFER}-byte buffers)"),
                    cells: vec![kernel.map(GuideValue::one), user.map(GuideValue::one)],
                });
            }
        }
        if !t.rows.is_empty() {
            out.notes.push(format!(
                "AES throughput: one thread, {BUFFER}-byte buffers, MB = 10^6 bytes; AF_ALG \
                 uses the kernel's selected cbc(aes) driver, OpenSSL its EVP interface \
                 (`openssl speed -evp`)"
            ));
            out.tables.push(t);
        }
        if have_openssl {
            out.tool = exec::version_line("openssl", &["version"]);
        }
    }
    out
}
