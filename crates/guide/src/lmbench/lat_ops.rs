//! lat_ops: the latency of one basic operation (ns) for int, int64, float and double × add, mul,
//! div, mod, bit, as chains where every operation needs the previous result, seeded from
//! runtime values so nothing folds. Chains and counts are lmbench's (guide-methods §4.14): e.g.
//! int div is 100 × {r = s / r} per iteration, r alternating 37 ↔ 38·2^20 / 37; int mul and mod
//! subtract the bit operations their chains need, using the measured int/int64 bit time.
//!
//! Integer values pass through an empty `asm!` after each step ([`hide32`], [`hide64`]): it emits
//! no instruction but stops the optimiser from merging a chain (ten `a = a + a + i` steps are one
//! linear expression otherwise). Float chains need no barrier: floating-point arithmetic is not
//! reassociated. `a + a + i` compiles to one shift-and-add (lea/add-shifted) on most CPUs, like
//! the C original under GCC, so "int add" is half of that instruction's latency there.

use document::guide::GuideValue;

use super::timing::{Error, Result, Sample, Timing, figures, median};

/// Hides a 32-bit value from the optimiser without any instruction.
#[inline(always)]
#[allow(asm_sub_register)] // the operand only appears in a comment
pub fn hide32(x: u32) -> u32 {
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    ))]
    {
        let mut x = x;
        // SAFETY: an empty asm statement: no instruction, no memory or flags touched.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags))
        };
        x
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )))]
    {
        std::hint::black_box(x)
    }
}

/// Hides a 64-bit value from the optimiser without any instruction (two registers on 32-bit
/// targets).
#[inline(always)]
pub fn hide64(x: u64) -> u64 {
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    ))]
    {
        let mut x = x;
        // SAFETY: an empty asm statement: no instruction, no memory or flags touched.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags))
        };
        x
    }
    #[cfg(any(target_arch = "x86", target_arch = "arm"))]
    {
        let mut lo = x as u32;
        let mut hi = (x >> 32) as u32;
        // SAFETY: an empty asm statement: no instruction, no memory or flags touched.
        unsafe {
            core::arch::asm!("/* {0} {1} */", inout(reg) lo, inout(reg) hi, options(nomem, nostack, preserves_flags))
        };
        ((hi as u64) << 32) | lo as u64
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "x86",
        target_arch = "arm"
    )))]
    {
        std::hint::black_box(x)
    }
}

/// Writes its body out ten times (no loop, no branch between the copies).
macro_rules! ten_times {
    ($($body:tt)*) => {
        $($body)* $($body)* $($body)* $($body)* $($body)*
        $($body)* $($body)* $($body)* $($body)* $($body)*
    };
}

macro_rules! int_chains {
    (
        $modname:ident, $s:ty, $u:ty, $hide:ident, $div_r:expr, $div_s:expr, $mod_r:expr, $mod_s:expr, $rem:path
    ) => {
        pub mod $modname {
            use super::*;
            #[inline(always)]
            fn h(x: $s) -> $s {
                $hide(x as $u) as $s
            }
            /// 300 dependent bit operations per iteration: the step written out 100 times, as
            /// lmbench's `HUNDRED(…)` macro does. As a loop of 100 (LLVM does not unroll it
            /// around the barriers) every step carried two register moves and a branch: 7
            /// instructions for a 2-cycle chain, and the figure doubled in some rounds (0.49
            /// against 0.23 ns on a shared VM) while lmbench's straight-line code kept 0.23.
            pub fn bit(n: u64) {
                let mut r: $s = h(std::hint::black_box(1));
                let mut s: $s = h(std::hint::black_box(1000));
                for it in 0..n {
                    let i = it as $s;
                    ten_times! { ten_times! {
                        r ^= i;
                        s ^= r;
                        r |= s;
                        r = h(r);
                        s = h(s);
                    } }
                }
                std::hint::black_box((r, s));
            }
            /// 20,000 dependent adds per iteration (1000 × 10 × `a = a + a + i`).
            pub fn add(n: u64) {
                let mut a: $s = h(std::hint::black_box(1));
                for _ in 0..n {
                    for i in 1..=1000 as $s {
                        for _ in 0..10 {
                            a = h(a.wrapping_add(a).wrapping_add(i));
                        }
                    }
                }
                std::hint::black_box(a);
            }
            /// 20 dependent multiplies and 2 subtractions per iteration.
            pub fn mul(n: u64) {
                let r0: $s = std::hint::black_box(3);
                let s: $s = std::hint::black_box(7);
                let mut p: $s = r0;
                for _ in 0..10 {
                    p = p.wrapping_mul(s);
                }
                let t = p.wrapping_sub(r0);
                let mut r = h(r0);
                for _ in 0..n {
                    for _ in 0..2 {
                        for _ in 0..10 {
                            r = h(r.wrapping_mul(s));
                        }
                        r = h(r.wrapping_sub(t));
                    }
                }
                std::hint::black_box(r);
            }
            /// 100 dependent divisions per iteration, written out as lmbench's `HUNDRED(r = s /
            /// r)`: `mov`, `cqo`, `idiv`, `mov` each. Rust's checks for a zero or −1 divisor
            /// (a compare and a branch each, inside a loop of 100) made int64 div 1.06–1.08 ×
            /// lmbench's; the chain's divisors are known to stay positive (see the seeds below).
            pub fn div(n: u64) {
                // The chain from the seeds: r → s/r → … settles, from its second value, on two
                // positive values it alternates between (checked when compiling).
                const _: () = {
                    let (r0, s): ($s, $s) = ($div_r, $div_s);
                    let r1 = s / r0;
                    let r2 = s / r1;
                    assert!(r0 > 0 && r1 > 0 && r2 > 0 && s / r2 == r1);
                };
                // `black_box` and `h` return their argument unchanged: r and s are the seeds.
                let s: $s = h(std::hint::black_box($div_s));
                let mut r: $s = h(std::hint::black_box($div_r));
                for _ in 0..n {
                    ten_times! { ten_times! {
                        // SAFETY: r starts at the seed and only takes the chain's values, all
                        // positive (the const check above): never zero, never −1. (Not `r > 0`:
                        // with both signs known LLVM would divide unsigned, another instruction.)
                        unsafe { std::hint::assert_unchecked(r != 0 && r != -1) };
                        r = h(s / r);
                    } }
                }
                std::hint::black_box(r);
            }
            /// 100 dependent remainders and 100 ors per iteration, written out as lmbench's
            /// `HUNDRED(r %= s; r |= s)`, from lmbench's seeds: int r = 1 + n, s = 63 (its N is
            /// 1); int64 r = n + n·2^32, s = 1 + 2^56, so from the second step on the dividend is
            /// s | r₀ and the quotient 1. As a loop of 100 with other seeds (s = 63 + 2^40) int64
            /// mod read 1.09–1.19 × lmbench's (issue 21, quiet sitting 2026-11-27); with them
            /// and written out still 1.11–1.14: see [`rem_i64`].
            pub fn rem(n: u64) {
                let s: $s = h(std::hint::black_box($mod_s));
                let mut r: $s = h(std::hint::black_box($mod_r(n)));
                for _ in 0..n {
                    ten_times! { ten_times! {
                        // SAFETY: s is the seed above (63, or 1 + 2^56): positive, so never
                        // zero or −1. (Not `s == seed`: LLVM would then multiply by the
                        // reciprocal instead of dividing.)
                        unsafe { std::hint::assert_unchecked(s > 0) };
                        r = h($rem(r, s));
                        r = h(r | s);
                    } }
                }
                std::hint::black_box(r);
            }
        }
    };
}

/// One 32-bit remainder step (`cdq`, `idiv` on x86, as GCC compiles lmbench's `r %= s`).
#[inline(always)]
pub fn rem_i32(r: i32, s: i32) -> i32 {
    r.wrapping_rem(s)
}

/// One 64-bit remainder step. On x86_64 the two instructions GCC emits for lmbench's `r %= s`
/// (`cqo`, `idiv`): from Rust's `%` LLVM adds a test of both operands for a 32-bit division
/// before every `idiv` (`mov`, `or`, `shr`, a branch, a jump) — off the dependency chain, yet
/// int64 mod read 1.11–1.14 × lmbench's with it (5 rounds, A/A ≤ 2 % both sides). Elsewhere `%`.
/// The caller guarantees `s` is neither 0 nor −1.
#[inline(always)]
pub fn rem_i64(r: i64, s: i64) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        let rem: i64;
        // SAFETY: `s` is neither 0 nor −1 (the caller's seed), so `idiv` cannot fault; only
        // rax and rdx are written, both declared.
        unsafe {
            std::arch::asm!(
                "cqo",
                "idiv {s}",
                s = in(reg) s,
                inout("rax") r => _,
                out("rdx") rem,
                options(pure, nomem, nostack),
            );
        }
        rem
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        r.wrapping_rem(s)
    }
}

// Division's seeds are lmbench's (its N is 1): int r = 37, s = 38·2^20, quotients alternating
// 37 ↔ 2^20-ish; int64 r = 37 + 37·2^33, s = (r + 17)·2^13, quotients alternating about 2^13 ↔
// 2^38. A divider's latency follows the quotient's width, so other seeds time another division
// (ours were 37 ↔ 38·2^51/37, a 51-bit quotient: 1.08–1.10 × lmbench's int64 div).
int_chains!(
    int32,
    i32,
    u32,
    hide32,
    37,
    38 << 20,
    |n: u64| 1i32.wrapping_add(n as i32),
    63,
    rem_i32
);
int_chains!(
    int64,
    i64,
    u64,
    hide64,
    37 + (37 << 33),
    (37 + (37 << 33) + 17) << 13,
    |n: u64| (n as i64).wrapping_add((n as i64) << 32),
    1 + (1 << 56),
    rem_i64
);

macro_rules! float_chains {
    ($modname:ident, $f:ty) => {
        pub mod $modname {
            /// 22 dependent adds per iteration.
            pub fn add(n: u64) {
                let g: $f = std::hint::black_box(-1023.0);
                let mut f: $f = std::hint::black_box(1.0);
                for _ in 0..n {
                    for _ in 0..2 {
                        for _ in 0..10 {
                            f += f;
                        }
                        f += g;
                    }
                }
                std::hint::black_box(f);
            }
            /// 40 dependent multiplies per iteration.
            pub fn mul(n: u64) {
                let g: $f = std::hint::black_box(0.125);
                let mut f: $f = std::hint::black_box(8.0);
                for _ in 0..n {
                    for _ in 0..2 {
                        for _ in 0..10 {
                            f *= f;
                            f *= g;
                        }
                    }
                }
                std::hint::black_box(f);
            }
            /// 100 dependent divisions per iteration.
            pub fn div(n: u64) {
                let mut f: $f = std::hint::black_box(std::f64::consts::SQRT_2 as $f);
                let mut g: $f = std::hint::black_box(std::f64::consts::PI as $f);
                for _ in 0..n {
                    for _ in 0..5 {
                        for _ in 0..10 {
                            f = g / f;
                        }
                        for _ in 0..10 {
                            g = f / g;
                        }
                    }
                }
                std::hint::black_box((f, g));
            }
        }
    };
}

float_chains!(float32, f32);
float_chains!(float64, f64);

/// The operand types in lmbench's (and the seed's) naming.
pub const TYPES: [&str; 4] = ["int", "int64", "float", "double"];

/// The operations of a type, in the seed's naming.
pub fn ops(ty: &str) -> &'static [&'static str] {
    match ty {
        "int" | "int64" => &["add", "bit", "div", "mod", "mul"],
        _ => &["add", "div", "mul"],
    }
}

type Body = fn(u64);

fn body(ty: &str, op: &str) -> Option<(Body, f64)> {
    Some(match (ty, op) {
        ("int", "bit") => (int32::bit, 300.0),
        ("int", "add") => (int32::add, 20_000.0),
        ("int", "mul") => (int32::mul, 20.0),
        ("int", "div") => (int32::div, 100.0),
        ("int", "mod") => (int32::rem, 100.0),
        ("int64", "bit") => (int64::bit, 300.0),
        ("int64", "add") => (int64::add, 20_000.0),
        ("int64", "mul") => (int64::mul, 20.0),
        ("int64", "div") => (int64::div, 100.0),
        ("int64", "mod") => (int64::rem, 100.0),
        ("float", "add") => (float32::add, 22.0),
        ("float", "mul") => (float32::mul, 40.0),
        ("float", "div") => (float32::div, 100.0),
        ("double", "add") => (float64::add, 22.0),
        ("double", "mul") => (float64::mul, 40.0),
        ("double", "div") => (float64::div, 100.0),
        _ => return None,
    })
}

/// Bit operations per iteration to subtract (lmbench's corrections).
fn correction(op: &str) -> f64 {
    match op {
        "mul" => 2.0,
        "mod" => 100.0,
        _ => 0.0,
    }
}

fn samples(t: &Timing, ty: &str, op: &str) -> Result<(Vec<Sample>, f64)> {
    let (f, count) = body(ty, op).ok_or_else(|| Error::Failed(format!("no lat_ops {ty} {op}")))?;
    Ok((t.benchmp(0.0, f)?, count))
}

/// ns per operation for every operation of `ty` (`bit` first: the others' corrections use it).
pub fn measure_type(t: &Timing, ty: &str) -> Vec<(String, Result<GuideValue>)> {
    let mut out = Vec::new();
    let mut bit_ns = 0.0;
    if ops(ty).contains(&"bit") {
        let v = samples(t, ty, "bit").and_then(|(s, c)| {
            bit_ns = median(&s).map(|m| m.per_iter() * 1000.0 / c).unwrap_or(0.0);
            GuideValue::from_samples(&figures(&s, |us| us * 1000.0 / c))
                .ok_or(Error::Failed("no samples".into()))
        });
        out.push(("bit".to_string(), v));
    }
    for &op in ops(ty).iter().filter(|o| **o != "bit") {
        let corr = correction(op) * bit_ns;
        let v = samples(t, ty, op).and_then(|(s, c)| {
            GuideValue::from_samples(&figures(&s, |us| ((us * 1000.0 - corr) / c).max(0.0)))
                .ok_or(Error::Failed("no samples".into()))
        });
        let stop = matches!(v, Err(Error::Cancelled));
        out.push((op.to_string(), v));
        if stop {
            break;
        }
    }
    out
}
