//! How Results.md prints the figures: sbc-bench rounds most cells to tens (`r10`) after
//! averaging integers, so a row written here compares cell by cell with sbc-bench's own.

use document::ResultDocument;
use document::imported::Headline;

use crate::rules::figures;

/// sbc-bench's `$(( $(awk '{printf ("%0.0f",$1/10)}' <<<x) * 10 ))`: C printf rounding of the
/// double x/10 (round half to even on the exact binary value), times ten. 0 for values that
/// are not finite or not positive.
pub fn r10(x: f64) -> u64 {
    if !x.is_finite() || x <= 0.0 {
        return 0;
    }
    let q = x / 10.0;
    let f = q.floor();
    // q - f is exact for doubles of this size, so ties are real ties of the double.
    let d = q - f;
    let r = if d > 0.5 || (d == 0.5 && f % 2.0 != 0.0) {
        f + 1.0
    } else {
        f
    };
    (r as u64).saturating_mul(10)
}

/// The Results.md cells of a document: 7-zip multi and AES rounded by R10 from their integer
/// part (sbc-bench averages integers), memcpy and memset by R10 from the value itself; 7-zip
/// single is rounded to an integer and kH/s kept as it is.
pub fn results_row(doc: &ResultDocument) -> Headline {
    let h = figures(doc);
    let int = |v: Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0);
    Headline {
        zip_multi: int(h.zip_multi).map(|v| r10(v.floor())),
        zip_single: int(h.zip_single).map(|v| v.round() as u64),
        aes: int(h.aes).map(|v| r10(v.floor())),
        memcpy: int(h.memcpy).map(r10),
        memset: int(h.memset).map(r10),
        khs: h.khs.filter(|v| v.is_finite()),
    }
}

/// The Results.md cells of raw figures (as the results database keeps them), rounded as
/// [`results_row`] rounds a document's: the table of stored runs shows what each run's own
/// summary row shows.
pub fn results_cells(h: &Headline<f64>) -> Headline<f64> {
    let int = |v: Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0);
    Headline {
        zip_multi: int(h.zip_multi).map(|v| r10(v.floor()) as f64),
        zip_single: int(h.zip_single).map(f64::round),
        aes: int(h.aes).map(|v| r10(v.floor()) as f64),
        memcpy: int(h.memcpy).map(|v| r10(v) as f64),
        memset: int(h.memset).map(|v| r10(v) as f64),
        khs: h.khs.filter(|v| v.is_finite()),
    }
}

/// The kernel as Results.md shows it: "6.1" from "6.1.0-28-arm64", "6.18" from
/// "6.18.44-fc-v595"; a release that does not start with numbers is kept as it is.
pub fn kernel_cell(release: &str) -> String {
    let base = release.split(['-', '+', '_', ' ']).next().unwrap_or("");
    let parts: Vec<&str> = base.split('.').take(2).collect();
    if parts.is_empty() || parts[0].is_empty() {
        release.to_string()
    } else {
        parts.join(".")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_figures_round_as_the_summary_row() {
        let raw = Headline {
            zip_multi: Some(12355.7),
            zip_single: Some(1999.6),
            aes: Some(1_427_841.9),
            memcpy: Some(7298.3),
            memset: Some(31009.0),
            khs: Some(2.37),
        };
        let c = results_cells(&raw);
        assert_eq!(c.zip_multi, Some(12360.0));
        assert_eq!(c.zip_single, Some(2000.0));
        assert_eq!(c.aes, Some(1_427_840.0));
        assert_eq!(c.memcpy, Some(7300.0));
        assert_eq!(c.memset, Some(31010.0));
        assert_eq!(c.khs, Some(2.37));
        assert_eq!(kernel_cell("6.18.44-fc-v595"), "6.18");
        assert_eq!(kernel_cell("6.1.0-28-arm64"), "6.1");
        assert_eq!(kernel_cell("5.10.110"), "5.10");
    }

    #[test]
    fn r10_is_printf_rounding() {
        assert_eq!(r10(12345.0), 12340);
        assert_eq!(r10(12355.0), 12360);
        assert_eq!(r10(1922.6), 1920);
        assert_eq!(r10(1925.0), 1920);
        assert_eq!(r10(1935.0), 1940);
        assert_eq!(r10(4.9), 0);
        assert_eq!(r10(5.1), 10);
        assert_eq!(r10(f64::NAN), 0);
        assert_eq!(r10(1e30), u64::MAX);
    }
}
