//! `boardbench upload URL [RUN…] --token …`: sends runs to a results service (`boardbench
//! serve`), redacted first.
//!
//! RUN is a result-document file or a run id of the results database, resolved as `report` does;
//! without RUN every stored run the service has not acknowledged yet is sent, oldest first — so
//! a board that was offline sends its backlog once the service is back, and a timer or cron job
//! can simply call `boardbench upload URL`. What each service acknowledged is kept in a state
//! file (the `upload` crate); redaction (host names, IP and MAC addresses, UUIDs, serial numbers,
//! credentials) is the `redact` crate's, with this machine's own identifiers read through the
//! probe root. Exit codes: 0 everything sent (or there already), 1 a document or the token was
//! refused (a person must look), 75 (EX_TEMPFAIL) the service could not be reached or kept
//! failing: the rest is sent by the next `upload`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use document::ResultDocument;
use resultsdb::Location;
use upload::{Client, Outcome, RetryPolicy, StateFile};

use crate::cli::Globals;
use crate::cmd::report::{Db, load};

/// Exit code when the service was unreachable and runs are left for a later upload.
pub const EXIT_TRY_LATER: i32 = 75;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The results service (`http://lab-server:8080`; `…/api/v1` is accepted too).
    #[arg(value_name = "URL")]
    pub url: String,
    /// Runs to send: result-document files or run ids of the results database. Without any:
    /// every stored run the service has not acknowledged yet.
    #[arg(value_name = "RUN")]
    pub runs: Vec<String>,
    /// The uploader's token (made on the service with `boardbench serve token add NAME`).
    /// Prefer BOARDBENCH_TOKEN or --token-file: a command line is visible to every user.
    #[arg(
        long,
        env = "BOARDBENCH_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub token: Option<String>,
    /// Read the token from this file (its first line).
    #[arg(long, value_name = "FILE", conflicts_with = "token")]
    pub token_file: Option<PathBuf>,
    /// The results database: a file path, `sqlite:PATH` or `postgres://…`.
    /// Default: root /var/lib/boardbench/results.sqlite, others
    /// ~/.local/share/boardbench/results.sqlite.
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    /// What each service acknowledged (and the salt of the redaction tokens). Default:
    /// uploads.json beside the SQLite database, else ~/.local/state/boardbench/uploads.json.
    #[arg(long, value_name = "FILE", env = "BOARDBENCH_UPLOAD_STATE")]
    pub state: Option<PathBuf>,
    /// Send host names, IP/MAC addresses and serial numbers as they are (no redaction; the
    /// document says so).
    #[arg(long)]
    pub keep_identifiers: bool,
    /// Send runs again that the service acknowledged before.
    #[arg(long)]
    pub force: bool,
    /// Show what would be sent and what redaction replaces, without sending.
    #[arg(long)]
    pub dry_run: bool,
    /// Also write each document as it is (or would be) sent into this directory.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Tries per document on connection errors and 5xx answers (a 4xx is never retried).
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub tries: u32,
    /// Seconds before the first retry; each further wait doubles (at most 30 s, with jitter).
    #[arg(long, default_value_t = 0.5, value_name = "SEC", value_parser = seconds)]
    pub retry_delay: f64,
    /// Time limit of one request in seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SEC", value_parser = seconds)]
    pub timeout: f64,
}

fn seconds(s: &str) -> Result<f64, String> {
    crate::values::seconds_between(s, 0.0, 3600.0)
}

/// One run to send.
struct Candidate {
    /// "run 12" or the file name.
    label: String,
    doc: ResultDocument,
}

fn device(doc: &ResultDocument) -> String {
    headline::device::of_document(doc).unwrap_or_else(|| "unnamed device".into())
}

fn token(args: &Args) -> anyhow::Result<Option<String>> {
    if let Some(f) = &args.token_file {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let t = text.lines().next().unwrap_or("").trim().to_string();
        if t.is_empty() {
            bail!("{}: no token in the file", f.display());
        }
        return Ok(Some(t));
    }
    Ok(args
        .token
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string))
}

/// The runs named on the command line, or every stored run, and how many of those named could
/// not be read (each said on stderr: one bad file never keeps the others from being sent).
fn candidates(
    args: &Args,
    db: &mut Db<'_>,
    loc: &Location,
) -> anyhow::Result<(Vec<Candidate>, usize)> {
    let mut out = Vec::new();
    if !args.runs.is_empty() {
        let mut unreadable = 0;
        for arg in &args.runs {
            let doc = match load(arg, db) {
                Ok((_, doc)) => doc,
                Err(e) => {
                    eprintln!("upload: {arg}: {e:#}; skipped");
                    unreadable += 1;
                    continue;
                }
            };
            let p = Path::new(arg);
            let label = if p.is_file() {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| arg.clone())
            } else {
                format!("run {}", arg.trim().trim_start_matches('#'))
            };
            out.push(Candidate { label, doc });
        }
        return Ok((out, unreadable));
    }
    if let Location::Sqlite(p) = loc
        && !p.exists()
    {
        eprintln!(
            "upload: no results database at {}: nothing to upload",
            p.display()
        );
        return Ok((out, 0));
    }
    let store = db.get()?;
    let mut listing = store
        .list(&resultsdb::Filter::default())
        .map_err(|e| anyhow::anyhow!("cannot list the runs of {}: {e}", loc.display()))?;
    listing.sort_by_key(|r| r.id);
    for r in listing {
        let Some(run) = store
            .run(r.id)
            .map_err(|e| anyhow::anyhow!("cannot read run {}: {e}", r.id))?
        else {
            continue;
        };
        match serde_json::from_value::<ResultDocument>(run.document) {
            Ok(doc) => out.push(Candidate {
                label: format!("run {}", r.id),
                doc,
            }),
            Err(e) => eprintln!("upload: run {}: not a result document ({e}); skipped", r.id),
        }
    }
    Ok((out, 0))
}

/// "3 mac, 2 ipv4" / "nothing to redact" / "identifiers kept".
pub(crate) fn redaction_summary(doc: &ResultDocument) -> String {
    match &doc.redaction {
        Some(r) if r.mode == "kept" => "identifiers kept".into(),
        Some(r) if !r.items.is_empty() => {
            let parts: Vec<String> = r
                .items
                .iter()
                .map(|i| format!("{} {}", i.distinct, i.kind))
                .collect();
            format!("redacted {}", parts.join(", "))
        }
        _ => "nothing to redact".into(),
    }
}

fn file_name_of(label: &str) -> String {
    let s: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let s = s.trim_end_matches(".json").to_string();
    format!("{s}.json")
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let service = upload::service_root(&args.url);
    if !(service.starts_with("http://") || service.starts_with("https://")) {
        return crate::output::usage(format!("{}: not an http:// or https:// URL", args.url));
    }
    let token = token(args)?;
    if token.is_none() && !args.dry_run {
        bail!("no token: give --token, --token-file or BOARDBENCH_TOKEN");
    }
    let loc = Location::resolve(args.db.as_deref())
        .map_err(|e| crate::output::Usage(format!("--db: {e}")))?;
    let state_path = args.state.clone().unwrap_or_else(|| {
        upload::default_state_path(match &loc {
            Location::Sqlite(p) => Some(p.as_path()),
            Location::Postgres(_) => None,
        })
    });
    let state = StateFile::new(&state_path);
    let known = state.load().map_err(|e| anyhow::anyhow!(e))?;
    let redactor = if args.keep_identifiers {
        None
    } else {
        let salt = state.salt().map_err(|e| anyhow::anyhow!(e))?;
        Some(redact::Redactor::new(&salt).with_local_identifiers(&g.root()))
    };
    let mut db = Db::new(args.db.as_deref());
    let (runs, unreadable) = candidates(args, &mut db, &loc)?;
    if let Some(dir) = &args.save {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let client = Client::new(
        &service,
        token.as_deref().unwrap_or(""),
        RetryPolicy {
            attempts: args.tries,
            first_delay: Duration::from_secs_f64(args.retry_delay),
            max_delay: Duration::from_secs(30),
        },
        Duration::from_secs_f64(args.timeout.max(1.0)),
    );
    let mut out = std::io::stdout().lock();
    let (mut new, mut there, mut skipped, mut rejected, mut left) = (0, 0, 0, 0, 0);
    let mut code = if unreadable > 0 { 1 } else { 0 };
    let mut would = 0;
    let hashes: Vec<String> = runs
        .iter()
        .map(|c| serde_json::to_value(&c.doc).map(|v| upload::document_hash(&v)))
        .collect::<Result<_, _>>()?;
    // What is still to send from run `i` on, when the upload stops there.
    let unsent_from = |i: usize| {
        hashes[i..]
            .iter()
            .enumerate()
            .filter(|(k, h)| {
                (args.force || known.acknowledged(&service, h).is_none())
                    && !hashes[..i + k].contains(h)
            })
            .count()
    };
    for (i, c) in runs.iter().enumerate() {
        let local_hash = &hashes[i];
        if hashes[..i].contains(local_hash) {
            writeln!(out, "{}: the same run as one above; sent once", c.label)?;
            continue;
        }
        if !args.force
            && let Some(ack) = known.acknowledged(&service, local_hash)
        {
            skipped += 1;
            if !args.runs.is_empty() {
                writeln!(
                    out,
                    "{}: sent before (run {} at the service); --force sends it again",
                    c.label, ack.id
                )?;
            }
            continue;
        }
        let sent = match &redactor {
            Some(r) => r
                .document(&c.doc)
                .map_err(|e| anyhow::anyhow!("{}: {e}; nothing sent", c.label))?,
            None => redact::kept(&c.doc),
        };
        let body = serde_json::to_vec(&sent)?;
        if let Some(dir) = &args.save {
            let p = dir.join(file_name_of(&c.label));
            std::fs::write(&p, &body).with_context(|| format!("cannot write {}", p.display()))?;
        }
        let what = format!("{} ({})", c.label, device(&c.doc));
        if args.dry_run {
            would += 1;
            writeln!(
                out,
                "{what}: would send {} KiB, {}",
                body.len().div_ceil(1024),
                redaction_summary(&sent)
            )?;
            continue;
        }
        let (outcome, retries) = client.post_run(&body);
        for r in &retries {
            eprintln!(
                "upload: {}: {}; tried again after {:.1} s",
                c.label,
                r.cause,
                r.waited.as_secs_f64()
            );
        }
        match outcome {
            Outcome::Stored(s) => {
                // Remembered before anything else: a kill after this line loses nothing.
                state
                    .acknowledge(&service, local_hash, &s, &c.label)
                    .map_err(|e| anyhow::anyhow!(e))?;
                // The contract's hash is SHA-256 of the canonical JSON of what was sent.
                let sent_hash = upload::document_hash(&serde_json::to_value(&sent)?);
                if !s.hash.eq_ignore_ascii_case(&sent_hash) {
                    eprintln!(
                        "upload: {}: the service's hash {} is not the document's {sent_hash}; \
                         it may have changed the document",
                        c.label, s.hash
                    );
                }
                if s.created {
                    new += 1;
                    writeln!(
                        out,
                        "{what}: stored as run {} ({})",
                        s.id,
                        redaction_summary(&sent)
                    )?;
                } else {
                    there += 1;
                    writeln!(out, "{what}: stored already as run {}", s.id)?;
                }
            }
            Outcome::Rejected { status, message } => {
                rejected += 1;
                code = 1;
                eprintln!("upload: {what}: refused by the service (HTTP {status}): {message}");
            }
            Outcome::Refused { status, message } => {
                left = unsent_from(i);
                code = 1;
                eprintln!(
                    "upload: the service refused the token (HTTP {status}): {message}; nothing more sent"
                );
                break;
            }
            Outcome::BadAnswer { status, message } => {
                left = unsent_from(i);
                code = 1;
                eprintln!(
                    "upload: {service} answered HTTP {status}: {message}; is it a boardbench results service?"
                );
                break;
            }
            Outcome::Unavailable { message } => {
                left = unsent_from(i);
                if code == 0 {
                    code = EXIT_TRY_LATER;
                }
                eprintln!("upload: {service} is not reachable now: {message}");
                break;
            }
        }
    }
    if args.dry_run {
        writeln!(
            out,
            "dry run: {} to send, {skipped} sent before; state {}",
            would,
            state_path.display()
        )?;
        return Ok(0);
    }
    let mut summary = format!("{new} new, {there} stored already");
    if skipped > 0 {
        summary.push_str(&format!(", {skipped} sent before"));
    }
    if rejected > 0 {
        summary.push_str(&format!(", {rejected} refused"));
    }
    if unreadable > 0 {
        summary.push_str(&format!(", {unreadable} unreadable"));
    }
    if left > 0 && code == EXIT_TRY_LATER {
        summary.push_str(&format!(
            "; {left} not sent (`boardbench upload {}` sends them later)",
            args.url
        ));
    } else if left > 0 {
        summary.push_str(&format!("; {left} not sent"));
    }
    writeln!(out, "upload to {service}: {summary}")?;
    Ok(code)
}
