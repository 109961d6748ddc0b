//! Recursive SHA-256 (the Fast Recursive SHA256 benchmark): `hash ← SHA256(hash)` N times on a
//! 32-byte value. Each step is exactly one compression of one padded block — W0–W7 the previous
//! digest, W8–W15 constant padding (0x80000000, zeros, length 256 bits) — from the standard IV.
//! Every hash depends on the previous one, so the speed is the latency of one compression: a
//! pure measure of the SHA unit's (or the integer core's) dependency chain.
//!
//! Backends (instruction sets): x86_64 SHA-NI, ARMv8 SHA2 and portable Rust. Three
//! [`Variant`]s, as the benchmark publishes them:
//! - **Fast**: the hardware instructions, shaped around the latency chain (constants and the
//!   padding half of the block kept in registers, no layout conversions);
//! - **Reference**: the same instructions written the straightforward way (block built in
//!   memory, byte-swapped load, layout conversion and schedule every step) — the original's
//!   "Reference" figure, the one published numbers compare;
//! - **Portable**: plain Rust without special instructions (what runs without the extension;
//!   it also verifies the others).
//!
//! Pure: the caller pins.

#[cfg(target_arch = "aarch64")]
mod arm;
#[cfg(target_arch = "aarch64")]
mod arm_reference;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_reference;

pub use document::measure::sha256::{Sha256Backend, Sha256Sample};

pub use portable::compress;

use crate::timing;

/// The standard initial hash value H(0).
pub const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Round constants.
pub const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// W8–W15 of every block: the 0x80 end marker right after the 32 bytes, zeros, and the message
/// length in bits (256) in the last word.
pub const PAD: [u32; 8] = [0x8000_0000, 0, 0, 0, 0, 0, 0, 256];

/// The 32-byte start value of the chain (all zeros).
pub const SEED: [u8; 32] = [0; 32];

/// The one block of a recursive step as the Reference variants hash it from memory: the 32-byte
/// digest, then SHA-256 padding for a 256-bit message. Inlined, so the measured loop is the
/// same as when each variant wrote it out.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn fill_padded_block(block: &mut [u8; 64], digest: &[u32; 8]) {
    for (chunk, w) in block.chunks_exact_mut(4).zip(digest) {
        chunk.copy_from_slice(&w.to_be_bytes());
    }
    block[32] = 0x80;
    block[33..62].fill(0);
    block[62..].copy_from_slice(&256u16.to_be_bytes());
}

fn to_words(bytes: &[u8; 32]) -> [u32; 8] {
    core::array::from_fn(|i| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

fn to_bytes(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether this CPU can run `backend`.
pub fn is_available(backend: Sha256Backend) -> bool {
    match backend {
        Sha256Backend::Portable => true,
        #[cfg(target_arch = "x86_64")]
        Sha256Backend::ShaNi => x86::available(),
        #[cfg(target_arch = "aarch64")]
        Sha256Backend::Armv8Sha2 => arm::available(),
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

/// Every backend this CPU can run, hardware first.
pub fn available_backends() -> Vec<Sha256Backend> {
    [
        Sha256Backend::ShaNi,
        Sha256Backend::Armv8Sha2,
        Sha256Backend::Portable,
    ]
    .into_iter()
    .filter(|&b| is_available(b))
    .collect()
}

/// The hardware backend of this CPU, if any (the only one that may be called "Fast").
pub fn fast_backend() -> Option<Sha256Backend> {
    available_backends().into_iter().find(|b| b.is_hardware())
}

/// `n` recursive hashes of `seed` with `backend`; `None` when this CPU cannot run it.
pub fn chain(backend: Sha256Backend, seed: &[u8; 32], n: u64) -> Option<[u8; 32]> {
    if !is_available(backend) {
        return None;
    }
    let w = to_words(seed);
    let out = match backend {
        Sha256Backend::Portable => portable::chain(w, n),
        // SAFETY: availability checked above.
        #[cfg(target_arch = "x86_64")]
        Sha256Backend::ShaNi => unsafe { x86::chain(w, n) },
        // SAFETY: availability checked above.
        #[cfg(target_arch = "aarch64")]
        Sha256Backend::Armv8Sha2 => unsafe { arm::chain(w, n) },
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    Some(to_bytes(&out))
}

/// The benchmark's implementations (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Fast,
    Reference,
    Portable,
}

impl Variant {
    /// Every variant, in the order they are reported.
    pub const ALL: [Variant; 3] = [Variant::Fast, Variant::Reference, Variant::Portable];

    /// "Fast", "Reference", "Portable": the label in the output and the document.
    pub fn label(self) -> &'static str {
        match self {
            Variant::Fast => "Fast",
            Variant::Reference => "Reference",
            Variant::Portable => "Portable",
        }
    }

    /// The instruction set this variant runs on this CPU; `None` for Fast and Reference when
    /// the CPU lacks the SHA extension.
    pub fn backend(self) -> Option<Sha256Backend> {
        match self {
            Variant::Fast | Variant::Reference => fast_backend(),
            Variant::Portable => Some(Sha256Backend::Portable),
        }
    }
}

/// `n` recursive hashes of `seed` with `variant`; `None` when this CPU cannot run it.
pub fn chain_variant(variant: Variant, seed: &[u8; 32], n: u64) -> Option<[u8; 32]> {
    let backend = variant.backend()?;
    if variant != Variant::Reference {
        return chain(backend, seed, n);
    }
    reference_chain(backend, to_words(seed), n).map(|out| to_bytes(&out))
}

/// The Reference variant on `backend`; `None` where this architecture has no SHA instructions
/// (armv7, riscv64: only Portable runs there).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_variables)
)]
fn reference_chain(backend: Sha256Backend, w: [u32; 8], n: u64) -> Option<[u32; 8]> {
    match backend {
        // SAFETY: `backend` is a hardware backend this CPU has (fast_backend checked it).
        #[cfg(target_arch = "x86_64")]
        Sha256Backend::ShaNi => Some(unsafe { x86_reference::chain(w, n) }),
        // SAFETY: as above.
        #[cfg(target_arch = "aarch64")]
        Sha256Backend::Armv8Sha2 => Some(unsafe { arm_reference::chain(w, n) }),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// Times `n` recursive hashes of `variant` (see [`run`]); `None` when this CPU cannot run it.
pub fn run_variant(variant: Variant, seed: &[u8; 32], n: u64) -> Option<Sha256Sample> {
    let backend = variant.backend()?;
    let (digest, iv) = timing::time(|| chain_variant(variant, seed, std::hint::black_box(n)));
    Some(sample(backend, n, digest?, iv))
}

fn sample(backend: Sha256Backend, n: u64, digest: [u8; 32], iv: timing::Interval) -> Sha256Sample {
    // As the clock kernel: wall time, or CPU time when the thread was preempted meanwhile.
    let secs = crate::clock::effective_ns(&iv).max(1) as f64 / 1e9;
    Sha256Sample {
        backend,
        iterations: n,
        wall_ns: iv.wall_ns,
        cpu_ns: iv.cpu_ns,
        digest: hex(&digest),
        mhs: n as f64 / secs / 1e6,
    }
}

/// Times `n` recursive hashes (wall and thread CPU time); `None` when the backend is missing.
/// The rate uses the wall time, or the thread's CPU time when that is shorter (preempted).
pub fn run(backend: Sha256Backend, seed: &[u8; 32], n: u64) -> Option<Sha256Sample> {
    if !is_available(backend) {
        return None;
    }
    let (digest, iv) = timing::time(|| chain(backend, seed, std::hint::black_box(n)));
    Some(sample(backend, n, digest?, iv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_compression_of_the_padded_zero_block_is_sha256_of_32_zero_bytes() {
        // FIPS 180-4 test value computed independently: SHA-256 of 32 zero bytes.
        assert_eq!(
            hex(&chain(Sha256Backend::Portable, &SEED, 1).unwrap()),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(chain(Sha256Backend::Portable, &SEED, 0).unwrap(), SEED);
    }
}
