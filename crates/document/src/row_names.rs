//! Row names (a measurement's `suite` and `test`) that the crates writing rows and the crates
//! reading them must spell alike: the adapters write them, headline and findings read them.
//! They live here, the one crate all of them depend on, so a reader needs no adapter.

/// 7-Zip's benchmark rows (suite "7zip", unit "MIPS").
pub mod sevenzip {
    /// The suite of every 7-Zip row.
    pub const SUITE: &str = "7zip";
    /// `Tot:` 4th column, the sbc-bench score.
    pub const TOTAL_RATING: &str = "total rating";
    /// `Avr:` compress rating (sbc-bench's "Compression:" list).
    pub const COMPRESS_RATING: &str = "compress rating";
    /// `Avr:` decompress rating (sbc-bench's "Decompression:" list).
    pub const DECOMPRESS_RATING: &str = "decompress rating";
    /// `Tot:` R/U column: the rating per 100 % of CPU usage, i.e. per busy core.
    pub const TOTAL_RATING_PER_USAGE: &str = "total rating/usage";
}
