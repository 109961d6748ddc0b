//! The writer underneath the [`crate::Restorer`], and the rule for what to write back.
//!
//! A sysfs file does not always accept what it shows. `/sys/module/pcie_aspm/parameters/policy`
//! reads `[default] performance powersave powersupersave ` but accepts only one policy name; the
//! same bracket form is used by the block schedulers and transparent hugepages. Writing the read
//! text back is refused (EINVAL) and the setting stays changed, so [`restore_form`] turns what
//! the kernel shows into what it accepts. The writer is a trait so tests can put a model of the
//! kernel underneath (acceptance rules, refusals) instead of plain files.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Reads and writes machine paths ("/sys/…"). [`RootFs`] is the real one.
pub trait Sysfs: fmt::Debug + Send + Sync {
    /// The file's content as the kernel shows it.
    fn read(&self, abs: &str) -> io::Result<String>;
    /// Writes `value` (the caller adds the newline `echo` would) in one write.
    fn write(&self, abs: &str, value: &str) -> io::Result<()>;
}

/// Files under a root directory: `/` on the machine, a copied fixture tree in tests.
#[derive(Debug, Clone)]
pub struct RootFs {
    root: probe::Root,
}

impl RootFs {
    pub fn new(root: &probe::Root) -> Self {
        RootFs { root: root.clone() }
    }

    fn file(&self, abs: &str) -> PathBuf {
        self.root.path(abs)
    }
}

impl Sysfs for RootFs {
    fn read(&self, abs: &str) -> io::Result<String> {
        let bytes = std::fs::read(self.file(abs))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn write(&self, abs: &str, value: &str) -> io::Result<()> {
        // No truncation or creation: a sysfs attribute exists or it does not, and a missing file
        // must not be created in a fixture tree either.
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(self.file(abs))?;
        f.write_all(value.as_bytes())
    }
}

/// Why a file's shown value cannot be written back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRestorable(pub String);

impl fmt::Display for NotRestorable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What to write to put a file back to the value it showed as `shown`, without the newline.
///
/// - `a [b] c` (one word in brackets among plain words): `b`, the selected choice;
/// - one line of text (a number, a governor name, `0`/`1`): that line, trailing blanks dropped;
/// - `<unsupported>` (scaling_setspeed without the userspace governor), several lines or nothing:
///   not restorable, so the caller must not change the file.
pub fn restore_form(shown: &str) -> Result<String, NotRestorable> {
    let text = shown.trim_end_matches(['\n', ' ', '\t']);
    let text = text.trim_start_matches([' ', '\t']);
    if text.is_empty() {
        return Err(NotRestorable("it shows no value".into()));
    }
    if text.contains('\n') {
        return Err(NotRestorable("it shows several lines".into()));
    }
    if let Some(selected) = selected_choice(text) {
        return Ok(selected.to_string());
    }
    if text.contains('[') || text.contains(']') {
        return Err(NotRestorable(format!(
            "it shows {text:?}, which is not one choice in brackets"
        )));
    }
    if text.starts_with('<') && text.ends_with('>') {
        return Err(NotRestorable(format!("it shows {text:?}, not a value")));
    }
    Ok(text.to_string())
}

/// The bracketed word of a choice list (`always [madvise] never` → `madvise`), when exactly one
/// word is bracketed and every word is a plain word.
fn selected_choice(text: &str) -> Option<&str> {
    let mut selected = None;
    for word in text.split_whitespace() {
        if let Some(inner) = word.strip_prefix('[').and_then(|w| w.strip_suffix(']')) {
            if inner.is_empty() || inner.contains(['[', ']']) || selected.is_some() {
                return None;
            }
            selected = Some(inner);
        } else if word.contains(['[', ']']) {
            return None;
        }
    }
    selected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_list_is_restored_with_the_selected_word() {
        // Exactly as the kernel prints them (pcie_aspm adds a blank after every name).
        let cases = [
            (
                "[default] performance powersave powersupersave \n",
                "default",
            ),
            (
                "default performance [powersave] powersupersave \n",
                "powersave",
            ),
            ("always [madvise] never\n", "madvise"),
            ("[mq-deadline] kyber bfq none\n", "mq-deadline"),
            ("none [mq-deadline]\n", "mq-deadline"),
            ("[none]\n", "none"),
        ];
        for (shown, want) in cases {
            assert_eq!(restore_form(shown).as_deref(), Ok(want), "{shown:?}");
        }
    }

    #[test]
    fn plain_values_are_restored_as_shown() {
        for (shown, want) in [
            ("schedutil\n", "schedutil"),
            ("1800000\n", "1800000"),
            ("1\n", "1"),
            ("balance_performance\n", "balance_performance"),
            ("rockchip-dmc-ondemand \n", "rockchip-dmc-ondemand"),
        ] {
            assert_eq!(restore_form(shown).as_deref(), Ok(want), "{shown:?}");
        }
    }

    #[test]
    fn what_cannot_be_written_back_is_refused() {
        for shown in [
            "<unsupported>\n",
            "",
            "\n",
            "a\nb\n",
            "[a] [b] c\n",
            "a [b c\n",
        ] {
            assert!(restore_form(shown).is_err(), "{shown:?}");
        }
    }
}
