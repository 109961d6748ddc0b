//! Optional external benchmark tools: found on PATH, version-checked, their output parsed.
