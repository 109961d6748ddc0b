//! The two timed loops: a counted loop whose body is a chain of dependent single-cycle XORs on
//! one register, `SHORT_OPS` resp. `LONG_OPS` long.
//!
//! Written as inline asm on every architecture we know so that no compiler can shorten, reorder
//! or vectorise the chain: the loop body is exactly N `xor`/`eor` instructions each reading the
//! result of the previous one, plus a decrement and branch on another register that the core
//! runs in parallel (on a single-issue core they cost the same extra cycles in both loops, which
//! the difference cancels). Other architectures get a portable chain that is not exact.

/// Dependent operations per iteration of the short and the long loop. mhz uses 50/250; a 3×
/// long loop (150) keeps the same ≥ 20 ms short run while one measurement (calibration + three
/// alternating pairs) stays within 0.3 s, and the difference is still 2× the short run.
pub const SHORT_OPS: u32 = 50;
pub const LONG_OPS: u32 = 150;

/// True when the loops are hand-written asm (one XOR per cycle holds on every known core).
pub const EXACT: bool = cfg!(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "arm",
    target_arch = "riscv64"
));

/// Name of the loop implementation, recorded with every sample.
pub const METHOD: &str = if cfg!(target_arch = "x86_64") {
    "x86_64 asm"
} else if cfg!(target_arch = "aarch64") {
    "aarch64 asm"
} else if cfg!(target_arch = "arm") {
    "arm asm"
} else if cfg!(target_arch = "riscv64") {
    "riscv64 asm"
} else {
    "portable"
};

// String repetition for the asm templates (asm! accepts macro-built literals).
#[allow(unused_macros)]
macro_rules! rep5 {
    ($s:expr) => {
        concat!($s, $s, $s, $s, $s)
    };
}
#[allow(unused_macros)]
macro_rules! rep50 {
    ($s:expr) => {
        rep5!(concat!(rep5!($s), rep5!($s)))
    };
}
#[allow(unused_macros)]
macro_rules! rep150 {
    ($s:expr) => {
        concat!(rep50!($s), rep50!($s), rep50!($s))
    };
}

/// Defines `fn $name(count: usize)` running `count` iterations of `$body` (a repeated op).
/// Every architecture: align the loop head to 64 bytes, one register `x` carries the chain,
/// `y` is a constant operand, `n` counts down.
#[allow(unused_macros)]
macro_rules! chain_fn {
    ($name:ident, $body:expr) => {
        #[inline(never)]
        pub fn $name(count: usize) {
            if count == 0 {
                return;
            }
            // SAFETY: register-only arithmetic and a local backward branch; no memory, no stack.
            unsafe {
                #[cfg(target_arch = "x86_64")]
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    $body,
                    "dec {n}",
                    "jnz 2b",
                    n = inout(reg) count => _,
                    x = inout(reg) 0x1234_5678u32 => _,
                    y = in(reg) 0x5a5a_5a5au32,
                    options(nomem, nostack),
                );
                #[cfg(target_arch = "aarch64")]
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    $body,
                    "subs {n}, {n}, #1",
                    "b.ne 2b",
                    n = inout(reg) count => _,
                    x = inout(reg) 0x1234_5678u32 => _,
                    y = in(reg) 0x5a5a_5a5au32,
                    options(nomem, nostack),
                );
                #[cfg(target_arch = "arm")]
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    $body,
                    "subs {n}, {n}, #1",
                    "bne 2b",
                    n = inout(reg) count => _,
                    x = inout(reg) 0x1234_5678u32 => _,
                    y = in(reg) 0x5a5a_5a5au32,
                    options(nomem, nostack),
                );
                #[cfg(target_arch = "riscv64")]
                core::arch::asm!(
                    ".p2align 6",
                    "2:",
                    $body,
                    "addi {n}, {n}, -1",
                    "bnez {n}, 2b",
                    n = inout(reg) count => _,
                    x = inout(reg) 0x1234_5678u32 => _,
                    y = in(reg) 0x5a5a_5a5au32,
                    options(nomem, nostack),
                );
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod imp {
    chain_fn!(short, rep50!("xor {x:e}, {y:e}\n"));
    chain_fn!(long, rep150!("xor {x:e}, {y:e}\n"));
}

#[cfg(target_arch = "aarch64")]
mod imp {
    chain_fn!(short, rep50!("eor {x:w}, {x:w}, {y:w}\n"));
    chain_fn!(long, rep150!("eor {x:w}, {x:w}, {y:w}\n"));
}

#[cfg(any(target_arch = "arm", target_arch = "riscv64"))]
mod imp {
    #[cfg(target_arch = "arm")]
    chain_fn!(short, rep50!("eor {x}, {x}, {y}\n"));
    #[cfg(target_arch = "arm")]
    chain_fn!(long, rep150!("eor {x}, {x}, {y}\n"));
    #[cfg(target_arch = "riscv64")]
    chain_fn!(short, rep50!("xor {x}, {x}, {y}\n"));
    #[cfg(target_arch = "riscv64")]
    chain_fn!(long, rep150!("xor {x}, {x}, {y}\n"));
}

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "arm",
    target_arch = "riscv64"
)))]
mod imp {
    //! Portable fallback: `black_box` after every XOR keeps the chain, but the compiler may add
    //! moves or spills, so one operation per cycle is not guaranteed (samples say `exact: false`).
    use std::hint::black_box;

    fn chain(count: usize, ops: u32) {
        let mut x = black_box(0x1234_5678u32);
        let y = black_box(0x5a5a_5a5au32);
        for _ in 0..count {
            for _ in 0..ops {
                x = black_box(x ^ y);
            }
        }
        black_box(x);
    }
    #[inline(never)]
    pub fn short(count: usize) {
        chain(count, super::SHORT_OPS)
    }
    #[inline(never)]
    pub fn long(count: usize) {
        chain(count, super::LONG_OPS)
    }
}

/// Runs `count` iterations of the short loop (`SHORT_OPS` dependent XORs each).
pub fn run_short(count: usize) {
    imp::short(count)
}

/// Runs `count` iterations of the long loop (`LONG_OPS` dependent XORs each).
pub fn run_long(count: usize) {
    imp::long(count)
}
