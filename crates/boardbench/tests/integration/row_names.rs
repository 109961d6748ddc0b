//! headline reads two row names the tool adapters write (it stays free of them): 7-Zip's is
//! `document::row_names`, which both use; the AES row is repeated in headline. The binary, which
//! depends on both, checks that they agree — a renamed adapter row would otherwise silently
//! empty the 7-Zip and AES headline figures.

#[test]
fn headline_reads_the_rows_the_adapters_write() {
    assert_eq!(
        headline::native::TOTAL_RATING,
        adapters::sevenzip::test_names::TOTAL_RATING
    );
    assert_eq!(
        headline::native::AES_16K_RUN,
        adapters::openssl::test_name("aes-256-cbc", 16384)
    );
}
