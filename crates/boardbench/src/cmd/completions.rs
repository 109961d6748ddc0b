//! `boardbench completions SHELL` (hidden): the completion script for bash, zsh or fish,
//! generated from the same clap definition the binary parses with, so it cannot drift from the
//! options. The packages (scripts/dist) install its output; users without a package can
//! `source <(boardbench completions bash)`.

use std::io::Write;

use clap_complete::Shell;

use crate::cli::{Cli, Globals};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// The shells the packages install completions for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

impl CompletionShell {
    fn shell(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
        }
    }
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let mut buf = Vec::new();
    script(args.shell, &mut buf);
    let mut out = std::io::stdout().lock();
    out.write_all(&buf)?;
    out.flush()?;
    Ok(0)
}

/// Writes the script for `shell` into `out`.
pub fn script(shell: CompletionShell, out: &mut Vec<u8>) {
    let mut cmd = Cli::command_for_help();
    clap_complete::generate(shell.shell(), &mut cmd, "boardbench", out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_gets_a_script_naming_the_commands() {
        for shell in [
            CompletionShell::Bash,
            CompletionShell::Zsh,
            CompletionShell::Fish,
        ] {
            let mut buf = Vec::new();
            script(shell, &mut buf);
            let text = String::from_utf8(buf).unwrap();
            assert!(text.contains("boardbench"), "{shell:?}");
            assert!(text.contains("sysroot"), "{shell:?}");
            assert!(text.contains("opp-walk"), "{shell:?}");
        }
    }
}
