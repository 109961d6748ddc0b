//! `boardbench-serve`: the results service (crates/serve) and its upload tokens, a program of its
//! own (and a package of its own, scripts/dist) so that the board binary carries no web server;
//! `boardbench serve ARGS` starts it.
//!
//! - `boardbench-serve --db URL [--listen 127.0.0.1:8080] [--max-upload 8MiB] [--read-token]` and the
//!   limits against slow clients (`--header-timeout`, `--body-timeout`, `--max-connections`,
//!   `--max-uploads`, `--shutdown-deadline`)
//! - `boardbench-serve token add NAME` prints a new token once (only its hash is stored); `token list`;
//!   `token revoke NAME` revokes every token of NAME.
//!
//! Only the command line lives here; everything else is in this package's library. The rule for
//! output errors and usage exit codes is the board binary's own (one file, used by both).

#[allow(dead_code)]
#[path = "../../boardbench/src/output.rs"]
mod output;

use std::io::Write;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use resultsdb::{Location, Store};

/// Two malloc arenas in all (glibc makes up to eight per CPU, one per busy thread): the
/// service's blocking threads parse and render large documents in turn, and with an arena
/// each the memory they freed stayed resident — 1.2 GiB instead of 420 MiB under
/// scripts/bench-serve's hostile mix (issue 48). `MALLOC_ARENA_MAX` in the environment wins.
fn few_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets a parameter of glibc's allocator; it is called first thing
        // in main, before any other thread exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
}

fn main() {
    few_malloc_arenas();
    // Help and version (exit 0) and usage errors (exit 64), under the same output rule as the
    // board binary's commands.
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => std::process::exit(output::run(|| {
            e.print()?;
            Ok(if e.use_stderr() { output::USAGE } else { 0 })
        })),
    };
    std::process::exit(output::run(|| run(&args)));
}

/// The results service: HTTP API and web pages over the results database; upload tokens.
#[derive(Debug, clap::Parser)]
#[command(name = "boardbench-serve", version, long_version = concat!(
    env!("CARGO_PKG_VERSION"), "\n", env!("BOARDBENCH_BUILD"), "\n", env!("BOARDBENCH_GLIBC")
))]
pub struct Args {
    /// The database: `postgres://user@host/db` (labs) or a SQLite file path (one person).
    #[arg(long, global = true, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    /// Address to listen on (put a TLS reverse proxy in front to serve beyond this machine).
    #[arg(
        long,
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080",
        env = "BOARDBENCH_LISTEN"
    )]
    pub listen: String,
    /// Largest accepted upload, in bytes (suffixes K, M, KiB, MiB).
    #[arg(long, value_name = "SIZE", default_value = "8MiB", value_parser = parse_size, env = "BOARDBENCH_MAX_UPLOAD")]
    pub max_upload: usize,
    /// Reading (API and pages) needs a token too; by default reading is open.
    #[arg(long, env = "BOARDBENCH_READ_TOKEN")]
    pub read_token: bool,
    /// Database connections kept open.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub connections: usize,
    /// A request's headers must arrive within this many seconds (also how long a kept-alive
    /// connection may stay idle).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_secs)]
    pub header_timeout: Duration,
    /// A request's whole body must arrive within this many seconds after its headers.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_secs)]
    pub body_timeout: Duration,
    /// Connections served at once; one more is answered 503 (keep it below the file limit,
    /// LimitNOFILE in the systemd unit).
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_connections: usize,
    /// Connections served at once from one client address (0: no cap). Behind a TLS proxy
    /// every connection comes from the proxy: set it to --max-connections and cap per client
    /// in the proxy (docs/serve.md).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// Uploads parsed and stored at once (each holds its document in memory); more wait.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_uploads: usize,
    /// After SIGTERM, how many seconds requests in flight may take before every connection
    /// is closed (below systemd's TimeoutStopSec).
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = parse_secs)]
    pub shutdown_deadline: Duration,
    #[command(subcommand)]
    pub command: Option<Sub>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Print the man page (roff), used by the package.
    #[command(hide = true)]
    Manpage,
    /// Upload tokens: add, list, revoke.
    Token {
        #[command(subcommand)]
        command: TokenSub,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum TokenSub {
    /// Make a token for an uploader (printed once; only its hash is stored).
    Add { name: String },
    /// Uploaders with their token counts and runs.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Revoke every token of an uploader (its runs stay).
    Revoke { name: String },
}

/// Seconds, at least 0.05 and at most a day: `10`, `0.5`.
fn parse_secs(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    if !(0.05..=86_400.0).contains(&v) {
        return Err(format!("{s} s is out of range (0.05 to 86400)"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `8MiB`, `512K`, `1000000`.
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: usize = n.parse().map_err(|_| format!("not a size: {s:?}"))?;
    let mul = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1024,
        "m" | "mib" | "mb" => 1024 * 1024,
        "g" | "gib" | "gb" => 1024 * 1024 * 1024,
        _ => return Err(format!("unknown size unit in {s:?} (use K, M or G)")),
    };
    n.checked_mul(mul)
        .filter(|v| *v > 0)
        .ok_or_else(|| format!("size out of range: {s:?}"))
}

pub fn run(args: &Args) -> anyhow::Result<i32> {
    if let Some(Sub::Manpage) = &args.command {
        let mut out = std::io::stdout().lock();
        clap_mangen::Man::new(Args::command())
            .section("1")
            .manual("boardbench manual")
            .source(format!("boardbench {}", env!("CARGO_PKG_VERSION")))
            .render(&mut out)?;
        out.flush()?;
        return Ok(0);
    }
    let loc = Location::resolve(args.db.as_deref())?;
    match &args.command {
        None => {
            serve::run(serve::Config {
                listen: args.listen.clone(),
                db: loc,
                max_upload: args.max_upload,
                read_token: args.read_token,
                connections: args.connections.clamp(1, 64),
                limits: serve::Limits {
                    header_timeout: args.header_timeout,
                    body_timeout: args.body_timeout,
                    max_connections: args.max_connections.max(1),
                    max_per_address: args.max_connections_per_address,
                    max_uploads: args.max_uploads.max(1),
                    shutdown_deadline: args.shutdown_deadline,
                },
            })?;
            Ok(0)
        }
        Some(Sub::Manpage) => unreachable!("answered above"),
        Some(Sub::Token { command }) => {
            let mut store = Store::open(&loc).map_err(|e| {
                anyhow::anyhow!("cannot open the results database {}: {e}", loc.display())
            })?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            match command {
                TokenSub::Add { name } => {
                    let token = store.token_add(name)?;
                    writeln!(out, "{token}")?;
                    eprintln!(
                        "token for {name}: shown only now; give it to the uploader \
                         (boardbench upload --token or BOARDBENCH_TOKEN)"
                    );
                }
                TokenSub::List { json } => {
                    let list = store.token_list()?;
                    if *json {
                        serde_json::to_writer_pretty(&mut out, &list)?;
                        writeln!(out)?;
                    } else {
                        for t in &list {
                            writeln!(
                                out,
                                "{}\t{} active\t{} revoked\t{} runs\tsince {}",
                                t.uploader, t.active_tokens, t.revoked_tokens, t.runs, t.created
                            )?;
                        }
                    }
                }
                TokenSub::Revoke { name } => {
                    let n = store.token_revoke(name)?;
                    if n == 0 {
                        eprintln!("serve token revoke: {name} has no active token");
                        return Ok(1);
                    }
                    writeln!(out, "revoked {n} token(s) of {name}")?;
                }
            }
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8MiB"), Ok(8 * 1024 * 1024));
        assert_eq!(parse_size("512K"), Ok(512 * 1024));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("8 parsecs").is_err());
        assert!(parse_size("0").is_err());
    }
}
