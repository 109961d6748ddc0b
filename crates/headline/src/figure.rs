//! The headline figures by name, so code that treats them one by one (comparability, tables,
//! charts) iterates over [`Figure::ALL`] instead of repeating six field names.

use document::imported::Headline;

/// One headline figure, in Results.md's column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    /// 7-Zip on all cores (MIPS).
    ZipMulti,
    /// 7-Zip single-threaded, best cluster (MIPS).
    ZipSingle,
    /// OpenSSL aes-256-cbc with 16 KiB blocks (1000 bytes/s).
    Aes,
    /// libc memcpy (MB/s).
    Memcpy,
    /// libc memset (MB/s).
    Memset,
    /// cpuminer (kH/s).
    Khs,
}

impl Figure {
    /// Every figure, in Results.md's column order.
    pub const ALL: [Figure; 6] = [
        Figure::ZipMulti,
        Figure::ZipSingle,
        Figure::Aes,
        Figure::Memcpy,
        Figure::Memset,
        Figure::Khs,
    ];

    /// Stable machine name (field name of [`Headline`], database column).
    pub fn name(self) -> &'static str {
        match self {
            Figure::ZipMulti => "zip_multi",
            Figure::ZipSingle => "zip_single",
            Figure::Aes => "aes",
            Figure::Memcpy => "memcpy",
            Figure::Memset => "memset",
            Figure::Khs => "khs",
        }
    }

    /// The column heading of sbc-bench's Results.md table.
    pub fn column(self) -> &'static str {
        match self {
            Figure::ZipMulti => "7-zip multi",
            Figure::ZipSingle => "7-zip single",
            Figure::Aes => "AES",
            Figure::Memcpy => "memcpy",
            Figure::Memset => "memset",
            Figure::Khs => "kH/s",
        }
    }

    /// Unit of the figure.
    pub fn unit(self) -> &'static str {
        match self {
            Figure::ZipMulti | Figure::ZipSingle => "MIPS",
            Figure::Aes => "kB/s",
            Figure::Memcpy | Figure::Memset => "MB/s",
            Figure::Khs => "kH/s",
        }
    }

    /// This figure of `h` (see [`crate::rules::widen`] for the rounded cells).
    pub fn of(self, h: &Headline<f64>) -> Option<f64> {
        match self {
            Figure::ZipMulti => h.zip_multi,
            Figure::ZipSingle => h.zip_single,
            Figure::Aes => h.aes,
            Figure::Memcpy => h.memcpy,
            Figure::Memset => h.memset,
            Figure::Khs => h.khs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_in_column_order() {
        let names: Vec<&str> = Figure::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(
            names,
            ["zip_multi", "zip_single", "aes", "memcpy", "memset", "khs"]
        );
        let h = Headline::<f64> {
            memset: Some(2.0),
            khs: Some(3.5),
            ..Default::default()
        };
        assert_eq!(Figure::Memset.of(&h), Some(2.0));
        assert_eq!(Figure::Khs.of(&h), Some(3.5));
        assert_eq!(Figure::Aes.of(&h), None);
    }
}
