//! `boardbench manpage [--dir DIR]` (hidden): the man page in roff, generated from the clap
//! definition (clap_mangen) so the options documented are the ones parsed. Without `--dir` the
//! main page goes to stdout; with it, `boardbench.1` and one `boardbench-COMMAND.1` per visible
//! command are written there (what scripts/dist puts into the package).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

use crate::cli::{Cli, Globals};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write boardbench.1 and boardbench-COMMAND.1 for each command into this directory.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    match &args.dir {
        None => {
            let page = main_page()?;
            let mut out = std::io::stdout().lock();
            out.write_all(&page)?;
            out.flush()?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
            for (name, page) in all_pages()? {
                let path = dir.join(format!("{name}.1"));
                std::fs::write(&path, page).with_context(|| format!("{}", path.display()))?;
            }
        }
    }
    Ok(0)
}

fn render(cmd: clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .section("1")
        .manual("boardbench manual")
        .source(format!("boardbench {}", env!("CARGO_PKG_VERSION")))
        .render(&mut buf)?;
    Ok(buf)
}

/// `boardbench.1`.
pub fn main_page() -> anyhow::Result<Vec<u8>> {
    render(Cli::command_for_help())
}

/// The main page and one page per visible command, by page name (`boardbench-run` …).
pub fn all_pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let cmd = Cli::command_for_help();
    let mut pages = vec![("boardbench".to_string(), render(cmd.clone())?)];
    for sub in cmd
        .get_subcommands()
        // boardbench-serve.1 is the service's own page, in its own package.
        .filter(|s| !s.is_hide_set() && !matches!(s.get_name(), "help" | "serve"))
    {
        // After `build()` clap names a subcommand `boardbench-run` (display name) and
        // `boardbench run` (synopsis): what man pages of git-style tools look like.
        let name = sub
            .get_display_name()
            .map(str::to_string)
            .unwrap_or_else(|| format!("boardbench-{}", sub.get_name()));
        let page = render(sub.clone().display_name(name.clone()))?;
        pages.push((name, page));
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_page_is_roff_with_the_commands() {
        let page = String::from_utf8(main_page().unwrap()).unwrap();
        assert!(page.starts_with(".ie"), "{}", &page[..80.min(page.len())]);
        assert!(page.contains(".TH boardbench 1"), "{page}");
        assert!(page.contains("run"), "{page}");
    }

    #[test]
    fn one_page_per_visible_command_and_none_for_hidden_ones() {
        let names: Vec<String> = all_pages().unwrap().into_iter().map(|(n, _)| n).collect();
        assert!(names.contains(&"boardbench-run".to_string()), "{names:?}");
        assert!(names.contains(&"boardbench-info".to_string()), "{names:?}");
        assert!(!names.iter().any(|n| n.ends_with("manpage")), "{names:?}");
        assert!(
            !names.iter().any(|n| n.ends_with("completions")),
            "{names:?}"
        );
    }
}
