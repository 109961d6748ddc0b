//! Sysfs files that list choices with the current one in brackets
//! (`mq-deadline kyber [bfq] none`, `[default] performance powersave`).

/// The selected entry of a choice list ("mq-deadline kyber [bfq] none" → "bfq"), or the only
/// word of a one-word file ("none").
pub fn selected(s: &str) -> Option<String> {
    if let Some(start) = s.find('[') {
        let rest = &s[start + 1..];
        let end = rest.find(']')?;
        let v = rest[..end].trim();
        return (!v.is_empty()).then(|| v.to_string());
    }
    let words: Vec<&str> = s.split_whitespace().collect();
    (words.len() == 1).then(|| words[0].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bracketed_word_is_selected() {
        assert_eq!(
            selected("mq-deadline kyber [bfq] none").as_deref(),
            Some("bfq")
        );
        assert_eq!(
            selected("[default] performance powersave").as_deref(),
            Some("default")
        );
        assert_eq!(selected("none").as_deref(), Some("none"));
        assert_eq!(selected("a b"), None);
        assert_eq!(selected("[] a"), None);
        assert_eq!(selected("[unterminated"), None);
    }
}
