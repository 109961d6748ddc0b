//! The board performance guide: each section measures one family of figures (system costs,
//! STREAM, Linpack …) and returns them as the guides' tables. Sections know nothing of the
//! command line, files or output; the command runs them under the session lifecycle and puts
//! their tables into the result document.
//!
//! Module map:
//! - [`context`]: what a section gets (machine, CPUs, budgets, cancellation).
//! - [`lmbench`]: the LMBench-style system costs (benchmp harness, one module per program).
//! - [`registry`]: every section with its `--sections` name, title and whether `--quick` runs it.
//! - [`build_info`]: how the built-in methods were compiled (recorded in every guide).
//! - [`stub`]: two tiny test-only sections (the command's hidden `--test-sections`).
//! - CPU sections, written from the published algorithms: [`dhrystone`], [`whetstone`],
//!   [`linpack`], [`stream`]; driving installed tools: [`openssl`] (speed table and CPU load),
//!   [`coremark`], [`coremark_pro`], [`multibench`], [`nbench`].
//! - I/O sections: [`storage`] (fio), [`network`] (iperf3, RFC 2544 search, the `peer` side;
//!   [`netif`]: the measured interface's driver, link and offloads),
//!   [`boot`] (systemd-analyze, kernel log), [`console`] (boot time and U-Boot's transfers
//!   from a lab's serial console logs: `guide console`, not a section of the board's run),
//!   [`kcrypto`] (/proc/crypto, AF_ALG), [`ipsec`] (ESP between two namespaces), [`audio`]
//!   (arecord/aplay).
//! - Helpers of the sections: [`pinning`] (a thread on one CPU by `loops::affinity`'s rule,
//!   the single-thread CPU), [`repeat`] (samples until the spread is small or the budget
//!   spent), [`child_cpu`] (a child's CPU time over wall time), [`external`] (find and run a
//!   tool, or skip), [`exec`] (external tools, bounded and cancellable; both through
//!   `adapters::process`, the one child runner), [`sysload`] (system CPU load).

pub mod build_info;
pub mod context;
pub mod lmbench;
pub mod registry;
pub mod stub;

// CPU and memory sections.
pub mod coremark;
pub mod coremark_pro;
pub mod dhrystone;
pub mod linpack;
pub mod multibench;
pub mod nbench;
pub mod openssl;
pub mod stream;
pub mod whetstone;

// I/O sections.
pub mod audio;
pub mod boot;
pub mod console;
pub mod ipsec;
pub mod kcrypto;
pub mod netif;
pub mod network;
pub mod storage;

// Helpers of the sections.
pub mod child_cpu;
pub mod exec;
pub mod external;
pub mod pinning;
pub mod repeat;
pub mod sysload;

pub use build_info::build_info;
pub use context::Context;
pub use registry::{Outcome, SectionDef};
