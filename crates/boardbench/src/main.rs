//! boardbench: how fast a single-board computer (or any Linux box) really is, and why.
//!
//! This binary is the only place that knows about the command line, files and output. It wires
//! the probe (reads the machine), the kernels (measure) and the model (the result document)
//! together; renderers turn documents into text.

mod cli;
mod cmd;
mod compat;
mod finishing;
mod live_view;
mod outfile;
mod output;
mod run;
mod session;
mod tools;
mod values;

// 32-bit ARM: this crate's own thread-locals (local-exec TLS in an executable) are read through
// `__aeabi_read_tp`, which glibc does not export. Linked by zig (scripts/dist), the only other
// definition is in zig's compiler-rt, a single object that also defines weak memcpy, memmove,
// memset and libm functions: pulling it in for this one helper made them the binary's own, so
// "libc memcpy" measured zig's byte loop instead of the board's glibc. Defined here as glibc
// itself does on ARMv6K and later (every armv7 core has the thread ID register): compiler-rt is
// not pulled in, and scripts/check-glibc sees memcpy and memset imported from libc.so.6.
#[cfg(all(target_arch = "arm", target_os = "linux"))]
std::arch::global_asm!(
    ".globl __aeabi_read_tp",
    ".hidden __aeabi_read_tp",
    ".type __aeabi_read_tp, %function",
    ".p2align 2",
    ".arm",
    "__aeabi_read_tp:",
    "mrc p15, 0, r0, c13, c0, 3",
    "bx lr",
    ".size __aeabi_read_tp, . - __aeabi_read_tp",
);

fn main() {
    // Which standard streams are the terminal (a hang-up later replaces them), and Ctrl-Z
    // stops the run's tools with boardbench.
    probe::terminal::remember();
    adapters::tool::follow_job_control();
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The guide's lat_proc rows re-execute this program as a small process (before anything
    // else, so it stays small); everything else records that it can.
    if let Some(code) = guide::lmbench::small_process::serve_or_enable(&argv) {
        std::process::exit(code);
    }
    if let Some(help) = compat::sbc_bench_help(&argv) {
        std::process::exit(output::run(|| {
            use std::io::Write;
            std::io::stdout().write_all(help.as_bytes())?;
            Ok(0)
        }));
    }
    // sbc-bench's switches (`-m 5`, `-c`, `-k` …) and its name are translated first, so existing
    // users and scripts carry over.
    let argv = match compat::translate(argv) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(output::USAGE);
        }
    };
    // sbc-bench's variables are checked by their own names (clap would name the flag they
    // stand for, which the user never typed).
    if let Err(msg) = compat::check_environment(&argv) {
        eprintln!("boardbench: {msg}");
        std::process::exit(output::USAGE);
    }
    let cli = match cli::Cli::try_parse_argv(argv) {
        Ok(cli) => cli,
        // Help and version (exit 0) and usage errors (exit 64), under the same output rule as
        // the commands.
        Err(e) => std::process::exit(output::run(|| {
            e.print()?;
            Ok(if e.use_stderr() { output::USAGE } else { 0 })
        })),
    };
    // Errors, a closed pipe and a full disk: one rule for every command (output.rs).
    let code = output::run(|| cmd::dispatch(&cli));
    std::process::exit(code);
}
