//! What an imported sbc-bench log contributes (its headline numbers, version, raw sections).
