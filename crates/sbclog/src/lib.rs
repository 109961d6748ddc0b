//! Parses sbc-bench logs of every era into boardbench result documents (see README of the fixtures).
