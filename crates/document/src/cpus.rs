//! A set of CPU numbers in the kernel's list notation ("0-3,6,8-9").
//!
//! The kernel, taskset, sysfs and sbc-bench's headings all write CPU lists; one type parses and
//! prints them so every crate agrees, in particular on the empty list (printed "-", the mark
//! every table of the log and the summary row uses for "nothing").

use std::fmt;

/// Highest CPU count accepted in a CPU list: twice the largest NR_CPUS a kernel config allows
/// (8192, x86 MAXSMP), so a corrupted file or a typo cannot make a reader walk millions of CPUs.
pub const MAX_CPUS: u32 = 16_384;

/// CPU numbers, sorted, without duplicates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CpuList(Vec<u32>);

/// A CPU list that could not be read; says which element and the whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuListError(pub String);

impl fmt::Display for CpuListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CpuListError {}

impl CpuList {
    /// The list of these CPUs (any order, duplicates allowed).
    pub fn new(cpus: &[u32]) -> Self {
        let mut v = cpus.to_vec();
        v.sort_unstable();
        v.dedup();
        CpuList(v)
    }

    /// Parses both forms sysfs writes: "0-3,6" (online, cpu_core/cpus, taskset) and "0 1 2 3"
    /// (related_cpus, affected_cpus); a trailing NUL is ignored. An empty text is the empty
    /// list. CPUs at or above [`MAX_CPUS`] and reversed ranges are errors.
    pub fn parse(s: &str) -> Result<Self, CpuListError> {
        let text = s.trim().trim_end_matches('\0');
        let mut v = Vec::new();
        for part in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            let bad = || CpuListError(format!("bad CPU list element {part:?} in {s:?}"));
            let cpu = |t: &str| {
                t.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&c| c < MAX_CPUS)
                    .ok_or_else(bad)
            };
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (cpu(a)?, cpu(b)?);
                    if b < a {
                        return Err(bad());
                    }
                    v.extend(a..=b);
                }
                None => v.push(cpu(part)?),
            }
        }
        v.sort_unstable();
        v.dedup();
        Ok(CpuList(v))
    }

    pub fn as_slice(&self) -> &[u32] {
        &self.0
    }

    pub fn into_vec(self) -> Vec<u32> {
        self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the CPUs are one run without gaps ("0-3"); false for the empty list.
    pub fn is_contiguous(&self) -> bool {
        !self.0.is_empty() && self.0.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]))
    }

    /// "cpu0-3,6": the kernel notation with a "cpu" prefix (the monitor's cluster lines); "-"
    /// for the empty list.
    pub fn cpu_prefixed(&self) -> String {
        if self.0.is_empty() {
            return self.to_string();
        }
        format!("cpu{self}")
    }

    /// "cpu0-cpu3", "cpu4": the form of sbc-bench's clock check headings for contiguous CPUs,
    /// "cpu0-1,3" ([`CpuList::cpu_prefixed`]) for a list with gaps; "-" for the empty list.
    pub fn heading(&self) -> String {
        match self.0.as_slice() {
            [first, .., last] if self.is_contiguous() => format!("cpu{first}-cpu{last}"),
            _ => self.cpu_prefixed(),
        }
    }

    /// "cpu1, cpu3": every CPU named on its own (findings that list CPUs one by one); "-" for
    /// the empty list.
    pub fn each_named(&self) -> String {
        if self.0.is_empty() {
            return self.to_string();
        }
        self.0
            .iter()
            .map(|c| format!("cpu{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The runs of consecutive CPUs as (first, last).
    fn runs(&self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for &c in &self.0 {
            match out.last_mut() {
                Some((_, last)) if last.checked_add(1) == Some(c) => *last = c,
                _ => out.push((c, c)),
            }
        }
        out
    }
}

impl From<&[u32]> for CpuList {
    fn from(cpus: &[u32]) -> Self {
        CpuList::new(cpus)
    }
}

/// "0-3,6,8-9"; "-" for the empty list.
impl fmt::Display for CpuList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, (a, b)) in self.runs().into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if a == b {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{b}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_kernel_notation() {
        let l = CpuList::parse("0-3,6, 8-9\n").unwrap();
        assert_eq!(l.as_slice(), &[0, 1, 2, 3, 6, 8, 9]);
        assert_eq!(l.to_string(), "0-3,6,8-9");
        assert_eq!(CpuList::parse("3 1 2\0").unwrap().to_string(), "1-3");
        assert_eq!(CpuList::new(&[5, 5]).to_string(), "5");
        assert_eq!(
            CpuList::new(&[u32::MAX - 1, u32::MAX]).to_string(),
            format!("{}-{}", u32::MAX - 1, u32::MAX)
        );
    }

    #[test]
    fn cpu_prefixed_forms() {
        let l = CpuList::new(&[0, 1, 2, 3, 6]);
        assert_eq!(l.cpu_prefixed(), "cpu0-3,6");
        assert_eq!(l.heading(), "cpu0-3,6");
        assert_eq!(l.each_named(), "cpu0, cpu1, cpu2, cpu3, cpu6");
        let l = CpuList::new(&[0, 1, 2, 3]);
        assert_eq!(l.cpu_prefixed(), "cpu0-3");
        assert_eq!(l.heading(), "cpu0-cpu3");
        assert_eq!(CpuList::new(&[4]).heading(), "cpu4");
        assert_eq!(CpuList::new(&[0, 2, 4]).cpu_prefixed(), "cpu0,2,4");
        let empty = CpuList::default();
        assert_eq!(empty.cpu_prefixed(), "-");
        assert_eq!(empty.heading(), "-");
        assert_eq!(empty.each_named(), "-");
    }

    #[test]
    fn one_rule_for_empty_and_errors() {
        assert!(CpuList::parse("").unwrap().is_empty());
        assert_eq!(CpuList::default().to_string(), "-");
        assert!(!CpuList::default().is_contiguous());
        assert!(CpuList::parse("3-1").is_err());
        assert!(CpuList::parse("a").is_err());
        assert!(CpuList::parse(&MAX_CPUS.to_string()).is_err());
        assert!(CpuList::parse("0-4000000000").is_err());
    }
}
