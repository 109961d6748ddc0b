//! The pinned SHA-256 loads: one thread per CPU, each pinned to its CPU, running the recursive
//! SHA-256 chain of `loops::sha256`. Two uses, two rules, one room:
//!
//! - [`heat`] (`thermal`): the fastest backend the CPU has (the hardware SHA units heat like
//!   sbc-bench's cpuminer heats NEON), counting hashes until told to stop; the count is the
//!   score of the heat curve.
//! - [`point`] (`graph`): the portable backend (the same integer code on every architecture,
//!   so scores compare across boards) for a fixed time, with each thread's rate and their
//!   spread.

pub mod heat;
pub mod point;
