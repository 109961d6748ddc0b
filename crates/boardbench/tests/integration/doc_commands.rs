//! Every `boardbench …` command line shown in README.md and docs/*.md parses: its subcommands
//! exist and each of its flags is one the subcommand's `--help` names (issue 50). A line is a
//! line of a fenced code block that starts with `boardbench ` (after a `$ ` prompt, `sudo ` and
//! `NAME=value` settings), or an inline code span that does; it ends at a comment, a pipe or
//! another shell operator. Placeholders (`RUN…`, `[--json]`, `A|B`) are read as the reference
//! writes them: a flag in brackets is still a flag, `--fast|--quick` is two. `boardbench serve
//! …` is handed to the separate `boardbench-serve` program and is left out.

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;

/// README.md and every page under docs/.
fn pages() -> Vec<PathBuf> {
    let root = testsupport::crates_dir().parent().unwrap().to_path_buf();
    let mut v = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

/// The `boardbench …` part of a shell line, if it is one.
fn command_of(line: &str) -> Option<String> {
    let mut s = line.trim();
    s = s.strip_prefix("$ ").unwrap_or(s).trim_start();
    loop {
        if let Some(rest) = s.strip_prefix("sudo ") {
            s = rest.trim_start();
            continue;
        }
        // NAME=value settings before the command.
        let first = s.split_whitespace().next().unwrap_or("");
        if let Some((name, _)) = first.split_once('=')
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            s = s[first.len()..].trim_start();
            continue;
        }
        break;
    }
    let rest = s.strip_prefix("boardbench ")?;
    let mut end = rest.len();
    for stop in [
        " #", " | ", " && ", " || ", "; ", " > ", " >", " < ", " 2>", "$(", "`",
    ] {
        if let Some(i) = rest.find(stop) {
            end = end.min(i);
        }
    }
    Some(format!("boardbench {}", rest[..end].trim()))
}

/// Every command line of a page, with its line number.
fn commands(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            if let Some(c) = command_of(line) {
                out.push((i + 1, c));
            }
            continue;
        }
        // Inline code spans.
        let mut rest = line;
        while let Some(a) = rest.find('`') {
            let after = &rest[a + 1..];
            let Some(b) = after.find('`') else { break };
            let span = &after[..b];
            if let Some(c) = command_of(span) {
                out.push((i + 1, c));
            }
            rest = &after[b + 1..];
        }
    }
    out
}

/// `boardbench PATH… --help`, cached: Some(help) when PATH is a (sub)command.
struct Helps(BTreeMap<Vec<String>, Option<String>>);

impl Helps {
    fn get(&mut self, path: &[String]) -> Option<String> {
        if let Some(h) = self.0.get(path) {
            return h.clone();
        }
        let mut c = common::command();
        c.args(path).arg("--help");
        let o = common::output_within(c, std::time::Duration::from_secs(30));
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let usage = format!("Usage: boardbench {}", path.join(" "));
        let help = (o.status.success() && (path.is_empty() || text.contains(usage.trim_end())))
            .then_some(text);
        self.0.insert(path.to_vec(), help.clone());
        help
    }
}

/// Whether `flag` (`--json`, `-o`) is named in `help` as an option.
fn names(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(i, _)| {
        let before = help[..i].chars().next_back().unwrap_or(' ');
        let after = help[i + flag.len()..].chars().next().unwrap_or(' ');
        matches!(before, ' ' | '[' | ',' | '(' | '|' | '\n')
            && !(after.is_ascii_alphanumeric() || after == '-' || after == '_')
    })
}

/// What is wrong with one command line, if anything.
fn check(helps: &mut Helps, line: &str) -> Option<String> {
    // A table cell writes `A\|B` for `A|B`.
    let line = line.replace("\\|", "|");
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    if words.first() == Some(&"serve") {
        return None;
    }
    let mut path: Vec<String> = Vec::new();
    let mut flags = Vec::new();
    for w in &words {
        if *w == "--" {
            break;
        }
        let w = w.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')' | ',' | '"' | '\''));
        if w.starts_with('-') && w.len() > 1 {
            for f in w.split('|') {
                let f = f.split('=').next().unwrap_or(f);
                let f = f.trim_end_matches(['.', '…', ':']);
                if f.starts_with('-') && f.len() > 1 && f != "--" {
                    flags.push(f.to_string());
                }
            }
            continue;
        }
        if !flags.is_empty() || w.is_empty() {
            continue;
        }
        // A word right after the command path: a deeper subcommand, or the first argument.
        let first = w.split('|').next().unwrap_or(w).to_string();
        if !first
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            continue;
        }
        let mut deeper = path.clone();
        deeper.push(first);
        if helps.get(&path).is_some() && helps.get(&deeper).is_some() {
            path = deeper;
        }
    }
    let Some(help) = helps.get(&path) else {
        return Some(format!("`boardbench {}` is not a command", path.join(" ")));
    };
    let unknown: Vec<&String> = flags.iter().filter(|f| !names(&help, f)).collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "`boardbench {} --help` names no {}",
            path.join(" "),
            unknown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

#[test]
fn every_command_line_in_the_readme_and_docs_parses() {
    let mut helps = Helps(BTreeMap::new());
    let mut wrong = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in commands(&text) {
            checked += 1;
            if let Some(why) = check(&mut helps, &line) {
                wrong.push(format!("{name}:{n}: {line}\n    {why}"));
            }
        }
    }
    println!("{checked} command lines checked");
    assert!(checked > 100, "only {checked} command lines found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_finds_lines_and_flags() {
    assert_eq!(
        command_of("$ sudo MODE=x boardbench run --fast   # comment"),
        Some("boardbench run --fast".into())
    );
    assert_eq!(
        command_of("boardbench results list | head"),
        Some("boardbench results list".into())
    );
    assert_eq!(command_of("sbc-bench -c"), None);
    let found = commands("text `boardbench info --json` more\n```sh\nboardbench doctor\n```\n");
    assert_eq!(
        found,
        vec![
            (1, "boardbench info --json".to_string()),
            (3, "boardbench doctor".to_string())
        ]
    );
    let mut helps = Helps(BTreeMap::new());
    assert_eq!(
        check(&mut helps, "boardbench run [--fast|--quick] -o FILE"),
        None
    );
    let bad = check(&mut helps, "boardbench run --no-such-flag").unwrap();
    assert!(bad.contains("--no-such-flag"), "{bad}");
    assert!(check(&mut helps, "boardbench results show ID --json").is_none());
    assert!(check(&mut helps, "boardbench sha256 [-i 100M] [-m MH\\|MB]").is_none());
    assert!(check(&mut helps, "boardbench results nosuch --no-such").is_some());
    assert!(check(&mut helps, "boardbench serve --anything").is_none());
}
