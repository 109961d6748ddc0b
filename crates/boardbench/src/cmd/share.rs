//! `boardbench share [RUN]` (and `run --share`): one run's log, redacted, to a paste service,
//! and the link printed with the summary row — what sbc-bench does at the end of every run
//! ("Full results uploaded to https://0x0.st/XXXX.bin"), but only when asked.
//!
//! RUN is a result-document file or a run id of the results database, resolved as `report`
//! does; without RUN, the latest stored run. The text is the log renderer's
//! (`textout::log`) of the document after `upload`'s redaction (the `redact` crate, this
//! machine's identifiers read through the probe root, the salt of the upload state file): host
//! names, IP and MAC addresses, UUIDs, serial numbers, user names and credentials become
//! `<kind:hash>` tokens; the board's model, SoC, kernel, distribution, settings, kernel messages
//! otherwise and every figure are kept. The redacted text is also written beside the upload
//! state (`shared/NAME.txt`), so what left the machine — or should have — can be read and
//! attached by hand. Exit codes: 0 shared (or `--dry-run`), 1 no such run or no run at all,
//! 75 (EX_TEMPFAIL) the paste service refused the text or could not be reached.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use document::ResultDocument;
use resultsdb::Location;

use crate::cli::Globals;
use crate::cmd::report::{Db, load};
use crate::cmd::upload::{EXIT_TRY_LATER, redaction_summary};

/// Where and how patiently to paste (shared by `share` and `run --share`).
#[derive(Debug, Clone, clap::Args)]
pub struct PasteArgs {
    /// The paste service: 0x0.st's form API (POST multipart `file=`, the link as the answer).
    #[arg(long, value_name = "URL", env = "BOARDBENCH_PASTE_URL",
          default_value = upload::paste::DEFAULT_URL)]
    pub paste_url: String,
    /// Time limit of one request to the paste service in seconds (one more try after a
    /// connection error or a 5xx, as sbc-bench).
    #[arg(long, default_value_t = 30.0, value_name = "SEC", value_parser = seconds)]
    pub paste_timeout: f64,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The run: a result-document file or a run id of the results database. Default: the
    /// latest stored run.
    #[arg(value_name = "RUN")]
    pub run: Option<String>,
    #[command(flatten)]
    pub paste: PasteArgs,
    /// Show what would be sent (the redacted log on stdout) without sending it.
    #[arg(long)]
    pub dry_run: bool,
    /// The results database: a file path, `sqlite:PATH` or `postgres://…`.
    /// Default: root /var/lib/boardbench/results.sqlite, others
    /// ~/.local/share/boardbench/results.sqlite.
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    /// The upload state file holding this machine's redaction salt (as `upload --state`).
    #[arg(long, value_name = "FILE", env = "BOARDBENCH_UPLOAD_STATE")]
    pub state: Option<PathBuf>,
}

fn seconds(s: &str) -> Result<f64, String> {
    crate::values::seconds_between(s, 1.0, 600.0)
}

/// What is kept, said beside what was replaced.
const KEPT: &str = "kept: board, SoC, kernel, distribution, settings, every figure";

/// The upload state file for a database (`--state`, BOARDBENCH_UPLOAD_STATE, else beside it).
pub(crate) fn state_path(state: Option<&Path>, loc: &Location) -> PathBuf {
    state.map(Path::to_path_buf).unwrap_or_else(|| {
        upload::default_state_path(match loc {
            Location::Sqlite(p) => Some(p.as_path()),
            Location::Postgres(_) => None,
        })
    })
}

/// The paste service's URL, or a usage error (checked before anything is read or run).
pub(crate) fn check_url(paste: &PasteArgs) -> anyhow::Result<&str> {
    let url = paste.paste_url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return crate::output::usage(format!("--paste-url {url}: not an http:// or https:// URL"));
    }
    Ok(url)
}

/// How one share went, for the caller's exit code.
pub(crate) enum Shared {
    Link,
    DryRun,
    Failed,
}

/// One document, redacted, rendered, kept locally and (unless `dry_run`) pasted; `name` is a
/// file name without extension (`run-12`). Prints the link with the summary row, or one line
/// saying why not and where the log is.
pub(crate) fn share_document(
    doc: &ResultDocument,
    name: &str,
    paste: &PasteArgs,
    dry_run: bool,
    state: &Path,
    g: &Globals,
) -> anyhow::Result<Shared> {
    let url = check_url(paste)?;
    let salt = upload::StateFile::new(state)
        .salt()
        .map_err(|e| anyhow::anyhow!(e))?;
    let redactor = redact::Redactor::new(&salt).with_local_identifiers(&g.root());
    let sent = redactor
        .document(doc)
        .map_err(|e| anyhow::anyhow!("{name}: {e}; nothing sent"))?;
    let text = textout::log(&sent);
    let file_name = format!("boardbench-{name}.txt");
    let dir = state
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("shared");
    let kept = dir.join(&file_name);
    let kept_shown =
        match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&kept, text.as_bytes())) {
            Ok(()) => kept.display().to_string(),
            Err(e) => {
                eprintln!(
                    "share: cannot keep the redacted log at {}: {e}",
                    kept.display()
                );
                "(not kept)".into()
            }
        };
    let redacted = redaction_summary(&sent);
    if dry_run {
        print!("{text}");
        std::io::stdout().flush()?;
        eprintln!(
            "dry run: would send {} bytes to {url} as {file_name} ({redacted}; {KEPT}); the log is {kept_shown}",
            text.len()
        );
        return Ok(Shared::DryRun);
    }
    let answer = upload::paste::paste(
        url,
        &file_name,
        text.as_bytes(),
        Duration::from_secs_f64(paste.paste_timeout),
        Duration::from_secs(1),
    );
    match answer {
        upload::paste::Pasted::Link(link) => {
            let row = textout::results_row(&sent);
            let mut out = std::io::stdout().lock();
            writeln!(out, "Full results uploaded to {link} ({redacted}; {KEPT})")?;
            writeln!(out, "{row} {link} |")?;
            Ok(Shared::Link)
        }
        upload::paste::Pasted::Refused { status, message } => {
            let says = if message.is_empty() {
                String::new()
            } else {
                format!(": {message}")
            };
            eprintln!(
                "share: {url} refused the log (HTTP {status}{says}); nothing shared — the redacted log is {kept_shown}"
            );
            Ok(Shared::Failed)
        }
        upload::paste::Pasted::Unreachable { message } => {
            eprintln!(
                "share: {url} is not reachable ({}); nothing shared — the redacted log is {kept_shown}",
                message.trim()
            );
            Ok(Shared::Failed)
        }
    }
}

/// Where a run made with `sudo` is stored (the root default), when that is not `loc`: the
/// hint for a user whose own database has no run.
fn root_database_hint(loc: &Location) -> String {
    let root_db = Path::new("/var/lib/boardbench/results.sqlite");
    match loc {
        Location::Sqlite(p) if p != root_db && root_db.is_file() => format!(
            "; runs made as root are in {}: `sudo boardbench share`, or --db {}",
            root_db.display(),
            root_db.display()
        ),
        _ => String::new(),
    }
}

/// The latest run of the database and its name, or why there is none.
fn latest(db: &mut Db<'_>, loc: &Location) -> anyhow::Result<(String, ResultDocument)> {
    if let Location::Sqlite(p) = loc
        && !p.exists()
    {
        anyhow::bail!(
            "no results database at {}: nothing to share (`boardbench run` stores a run; or give a document file){}",
            p.display(),
            root_database_hint(loc)
        );
    }
    let store = db.get()?;
    let last = store
        .list(&resultsdb::Filter::default())
        .map_err(|e| anyhow::anyhow!("cannot list the runs of {}: {e}", loc.display()))?
        .into_iter()
        .map(|r| r.id)
        .max();
    let Some(id) = last else {
        anyhow::bail!(
            "no run in the results database {}: nothing to share{}",
            loc.display(),
            root_database_hint(loc)
        );
    };
    let (_, doc) = load(&id.to_string(), db)?;
    Ok((format!("run-{id}"), doc))
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    check_url(&args.paste)?;
    let loc = Location::resolve(args.db.as_deref())
        .map_err(|e| crate::output::Usage(format!("--db: {e}")))?;
    let mut db = Db::new(args.db.as_deref());
    let (name, doc) = match &args.run {
        None => latest(&mut db, &loc)?,
        Some(arg) => {
            let (_, doc) = load(arg, &mut db)?;
            let p = Path::new(arg);
            let name = if p.is_file() {
                p.file_stem()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "document".into())
            } else {
                format!("run-{}", arg.trim().trim_start_matches('#'))
            };
            (name, doc)
        }
    };
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let state = state_path(args.state.as_deref(), &loc);
    Ok(
        match share_document(&doc, &name, &args.paste, args.dry_run, &state, g)? {
            Shared::Link | Shared::DryRun => 0,
            Shared::Failed => EXIT_TRY_LATER,
        },
    )
}
