//! cpuminer (`[date] Total: x kH/s` samples, `Total Scores:` list) and Stockfish
//! (`Total Scores (<net>): a,b,c`).

use document::imported::{Cpuminer, Stockfish};

use crate::text::{leading_f64, number_list};

pub fn cpuminer(lines: &[&str]) -> Option<Cpuminer> {
    let mut m = Cpuminer::default();
    let mut seen = false;
    let mut in_scores = false;
    for l in lines {
        if let Some(rest) = l.strip_prefix("** cpuminer-multi ") {
            m.version = rest.split_whitespace().next().map(str::to_string);
            seen = true;
        }
        if in_scores {
            // The list can wrap; the continuation line starts with ','.
            if l.starts_with(',') {
                m.total_scores.extend(number_list(l));
                continue;
            }
            in_scores = false;
        }
        if l.starts_with('[') && l.trim_end().ends_with("kH/s") {
            if let Some((_, v)) = l.split_once("] Total:")
                && let Some(v) = leading_f64(v)
            {
                m.samples_khs.push(v);
            }
        } else if let Some(rest) = l.strip_prefix("Total Scores:") {
            m.total_scores = number_list(rest);
            in_scores = true;
            seen = true;
        }
    }
    seen.then_some(m)
}

pub fn stockfish(lines: &[&str]) -> Option<Stockfish> {
    let mut s = Stockfish::default();
    let mut seen = false;
    for l in lines {
        if l.starts_with("Executing Stockfish") {
            s.heading = Some(l.trim().trim_end_matches(':').to_string());
            seen = true;
        } else if let Some(rest) = l.strip_prefix("Total Scores (")
            && let Some((_, list)) = rest.split_once("):")
        {
            s.total_scores = number_list(list);
            seen = true;
        }
    }
    seen.then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_scores() {
        let log = [
            "** cpuminer-multi 1.3.7 by tpruvot@github **",
            "[2026-05-05 10:22:21] Total: 18.85 kH/s",
            "Total Scores: 18.85,18.74",
            ",17.53,17.52",
            "",
            "Total Scores (nn-6877cd24400e.nnue): 5688180,5528916",
        ];
        let m = cpuminer(&log).unwrap();
        assert_eq!(m.total_scores, vec![18.85, 18.74, 17.53, 17.52]);
        assert_eq!(m.samples_khs, vec![18.85]);
        assert_eq!(
            stockfish(&log).unwrap().total_scores,
            vec![5688180.0, 5528916.0]
        );
    }
}
