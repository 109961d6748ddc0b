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

/// The rows of a `graph` sweep (suite "graph"): each point's figures are named
/// "`<figure>` `<CPUs>` @ `<clock>`" ("score cpu4-5 @ 2400 MHz"), the idle measurement's by
/// the figure alone. `graph` writes them; `textout::graph` renders its table from them.
pub mod graph {
    /// The suite of every sweep row.
    pub const SUITE: &str = "graph";
    /// The workload's score at a point (kH/s).
    pub const SCORE: &str = "score";
    /// The measured clock at a point (MHz).
    pub const CLOCK: &str = "clock";
    /// Score per measured MHz (kH/s/MHz).
    pub const SCORE_PER_MHZ: &str = "score per MHz";
    /// The mean temperature during a point (°C).
    pub const TEMPERATURE: &str = "temperature";
    /// The mean power during a point (W).
    pub const WATTS: &str = "watts";
    /// The power above the idle consumption (W).
    pub const WATTS_ABOVE_IDLE: &str = "watts above idle";
    /// Score per watt (kH/J).
    pub const SCORE_PER_WATT: &str = "score per watt";
    /// The idle consumption before the sweep (W).
    pub const IDLE_WATTS: &str = "idle watts";
    /// The mean temperature while idle (°C).
    pub const IDLE_TEMPERATURE: &str = "idle temperature";

    /// Where a point ran: "2400 MHz" when capped to an OPP (kHz), else "current clock".
    pub fn at(opp_khz: Option<u64>) -> String {
        opp_khz.map_or_else(
            || "current clock".to_string(),
            |k| format!("{} MHz", k / 1000),
        )
    }

    /// The test name of a point's figure: "score cpu4-5 @ 2400 MHz".
    pub fn point_test(figure: &str, cpu_text: &str, opp_khz: Option<u64>) -> String {
        format!("{figure} {cpu_text} @ {}", at(opp_khz))
    }
}
